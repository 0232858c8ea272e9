import { parentPort } from "node:worker_threads";
import { type IndexWriterJob, type IndexWriterResult, runIndexWriterJob } from "./index-writer-job.js";

/** Writes mirrored index files for the build's main thread (see index-writer.ts). */
parentPort?.on("message", (job: IndexWriterJob) => {
  let result: IndexWriterResult;
  try {
    result = { id: job.id, idents: runIndexWriterJob(job) };
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { shownAs?: string };
    result = { id: job.id, error: failure.code ?? failure.message, shownAs: failure.shownAs ?? "" };
  }
  parentPort?.postMessage(result);
});
