import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { IdentityResult } from "./identity-worker.js";
import { type BuildMemo, changedPaths, withSecondNames } from "./memo.js";
import { columnsOf } from "./memo-file.js";

/** The compiled worker; the same file whether this module runs from src (tests) or dist. */
const workerFile = fileURLToPath(new URL("../../dist/build/identity-worker.js", import.meta.url));

/** Files checked at a time by either thread. */
const CHUNK = 1024;

export interface IdentityCheck {
  /** Checks, beside the worker, what is left of the memo this thread loaded (the same file), and
   *  resolves with every path whose file changed since; undefined when the worker could not tell
   *  (no compiled worker, not that memo): the caller then checks them itself. */
  help(memo: BuildMemo): Promise<string[] | undefined>;
  /** Ends the check of a memo the caller does not use. */
  stop(): void;
}

/**
 * Starts checking, in a worker thread, that every file the memo file `file` records for `out` is
 * still the one it recorded (a hundred thousand lstat calls at 10,000 packages), while this thread
 * loads the same memo; then both take chunks of what is left from a shared counter.
 */
export function checkIdentities(file: string, out: string): IdentityCheck {
  if (!existsSync(workerFile)) return { help: async () => undefined, stop: () => {} };
  const counter = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(workerFile, { workerData: { file, out, counter, chunk: CHUNK } });
  const fromWorker = new Promise<NonNullable<IdentityResult> | undefined>((resolve) => {
    let answered = false;
    worker.once("message", (result: IdentityResult) => {
      answered = true;
      resolve(result ?? undefined);
      void worker.terminate();
    });
    worker.once("error", () => resolve(undefined));
    worker.once("exit", () => {
      if (!answered) resolve(undefined);
    });
  });
  return {
    async help(memo) {
      const columns = columnsOf(memo);
      const here =
        columns === undefined
          ? []
          : changedPaths(
              memo.out,
              columns.paths,
              columns.idents,
              () => Atomics.add(counter, 0, CHUNK),
              CHUNK,
            );
      const there = await fromWorker;
      // the worker read the same memo, else its part of the check cannot be used
      if (there === undefined || columns === undefined) return undefined;
      if (there.files !== columns.paths.length || there.last !== (columns.paths.at(-1) ?? ""))
        return undefined;
      return withSecondNames(memo.files, there.changed.concat(here));
    },
    stop: () => void worker.terminate(),
  };
}
