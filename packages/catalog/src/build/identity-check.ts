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
 * Starts checking, in a worker thread, that every file the base of the memo file `file` records for
 * `out` is still the one it recorded (a hundred thousand lstat calls at 10,000 packages), while this
 * thread loads the same memo; then both take chunks of what is left from a shared counter, and this
 * thread checks the few files the memo file records since its base.
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
              columns.base.paths,
              columns.base.idents,
              () => Atomics.add(counter, 0, CHUNK),
              CHUNK,
            );
      const there = await fromWorker;
      // the worker read the same base, else its part of the check cannot be used
      if (there === undefined || columns === undefined) return undefined;
      const { base, changed } = columns;
      if (there.files !== base.paths.length || there.last !== (base.paths.at(-1) ?? "")) return undefined;
      // the files the memo file records since its base: checked here (a few), and what the base
      // recorded of them is no longer theirs
      let from = 0;
      const next = () => {
        const at = from;
        from += CHUNK;
        return at;
      };
      const since = changedPaths(memo.out, changed.paths, changed.idents, next, CHUNK);
      const recordedSince = new Set(changed.paths);
      const fromBase = there.changed.concat(here).filter((path) => !recordedSince.has(path));
      return withSecondNames(memo.files, fromBase.concat(since));
    },
    stop: () => void worker.terminate(),
  };
}
