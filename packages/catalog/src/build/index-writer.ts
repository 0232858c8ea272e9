import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { ExitCode, PkgError } from "@pkg/common";
import type { IndexWriterJob, IndexWriterResult } from "./index-writer-job.js";
import type { FileIdent } from "./memo.js";

/** The compiled worker; the same file whether this module runs from src (tests) or dist. */
const workerFile = fileURLToPath(new URL("../../dist/build/index-writer-worker.js", import.meta.url));

type Pending = { resolve: (idents: (FileIdent | null)[]) => void; reject: (error: Error) => void };

/**
 * Writes the mirrored index files of a new site in a thread of their own: creating a hundred
 * thousand files and directories is kernel time, which the thread reading and verifying the index
 * then does not spend (on a busy filesystem a mkdir or a create takes a fifth of a millisecond).
 * Without the compiled worker (sources never built) the files are written in this thread.
 */
export class IndexWriter {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private failure: Error | undefined;
  private outbox: IndexWriterJob[] = [];
  private flush: NodeJS.Immediate | undefined;

  /** Creates the files (absolute path, bytes, name for messages); resolves with their identities. */
  write(files: [string, Uint8Array, string][]): Promise<FileIdent[]> {
    return this.run({ kind: "write", files }) as Promise<FileIdent[]>;
  }

  /** Links second names (absolute paths of the file and of the name, name for messages); resolves
   *  with null for each linked name, the identity of each one copied. */
  link(links: [string, string, string][]): Promise<(FileIdent | null)[]> {
    return this.run({ kind: "link", links });
  }

  private async run(
    job: Omit<IndexWriterJob, "id"> & Partial<IndexWriterJob>,
  ): Promise<(FileIdent | null)[]> {
    if (!existsSync(workerFile)) {
      const { runIndexWriterJob } = await import("./index-writer-job.js");
      try {
        return runIndexWriterJob({ ...job, id: 0 } as IndexWriterJob);
      } catch (error) {
        const failure = error as NodeJS.ErrnoException & { shownAs?: string };
        throw writeError(failure.shownAs ?? "", failure.code ?? failure.message);
      }
    }
    if (this.failure) throw this.failure;
    const worker = this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.outbox.push({ ...job, id } as IndexWriterJob);
      // the jobs of one turn of the event loop go in one message (a message wakes the other thread)
      this.flush ??= setImmediate(() => {
        this.flush = undefined;
        const jobs = this.outbox;
        this.outbox = [];
        worker.postMessage(jobs, transferable(jobs));
      });
    });
  }

  private start(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(workerFile, {
      execArgv: process.execArgv.filter((a) => a.startsWith("--cpu-prof")),
    });
    worker.on("message", (results: IndexWriterResult[]) => {
      for (const result of results) {
        const job = this.pending.get(result.id);
        this.pending.delete(result.id);
        if ("error" in result) job?.reject(writeError(result.shownAs, result.error));
        else job?.resolve(result.idents);
      }
    });
    worker.on("error", (error) => {
      this.failure = new PkgError(ExitCode.Failed, `the index writer failed: ${error.message}`, {
        cause: error,
      });
      for (const job of this.pending.values()) job.reject(this.failure);
      this.pending.clear();
    });
    this.worker = worker;
    return worker;
  }

  async close(): Promise<void> {
    if (this.flush !== undefined) clearImmediate(this.flush);
    this.flush = undefined;
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }
}

/**
 * The buffers of the files to write that can move to the writer rather than be copied: those that
 * are a file's own (allocated for it alone, as the local reader allocates them; a buffer from a
 * pool, or shared with anything else, is copied). A moved buffer is empty here afterwards: the
 * mirror gives the writer bytes it is done with.
 */
function transferable(jobs: IndexWriterJob[]): ArrayBuffer[] {
  const own = new Set<ArrayBuffer>();
  for (const job of jobs) {
    if (job.kind !== "write") continue;
    for (const [, bytes] of job.files) {
      const buffer = bytes.buffer;
      if (
        buffer instanceof ArrayBuffer &&
        bytes.byteOffset === 0 &&
        buffer.byteLength - bytes.byteLength <= 1
      )
        own.add(buffer);
    }
  }
  return [...own];
}

function writeError(shownAs: string, code: string): PkgError {
  return new PkgError(ExitCode.IoError, `cannot write ${shownAs}: ${code}`);
}
