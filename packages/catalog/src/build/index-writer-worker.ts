import { parentPort } from "node:worker_threads";
import { type IndexWriterJob, type IndexWriterResult, runIndexWriterJob } from "./index-writer-job.js";

/** Writes mirrored index files for the build's main thread, the jobs of a message in turn and their
 *  results in one message back (see index-writer.ts). */
parentPort?.on("message", (jobs: IndexWriterJob[]) => {
  const results: IndexWriterResult[] = [];
  for (const job of jobs) {
    try {
      results.push({ id: job.id, idents: runIndexWriterJob(job) });
    } catch (error) {
      const failure = error as NodeJS.ErrnoException & { shownAs?: string };
      results.push({ id: job.id, error: failure.code ?? failure.message, shownAs: failure.shownAs ?? "" });
    }
  }
  parentPort?.postMessage(results);
});
