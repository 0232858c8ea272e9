import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

/** The compiled worker; the same file whether this module runs from src (tests) or dist. */
const workerFile = fileURLToPath(new URL("../../dist/build/identity-worker.js", import.meta.url));

/**
 * Starts checking, in a worker thread, that every file the memo file `file` records for `out` is
 * still the one it recorded (a hundred thousand lstat calls at 10,000 packages), while this thread
 * loads the same memo. Resolves with the paths of the files changed since, or undefined when it
 * could not tell (no compiled worker, not a memo): the caller then checks them itself. `stop` ends
 * the check of a memo the caller does not use.
 */
export function checkIdentities(
  file: string,
  out: string,
): { changed: Promise<string[] | undefined>; stop: () => void } {
  if (!existsSync(workerFile)) return { changed: Promise.resolve(undefined), stop: () => {} };
  const worker = new Worker(workerFile, { workerData: { file, out } });
  const changed = new Promise<string[] | undefined>((resolve) => {
    let answered = false;
    worker.once("message", (changed: string[] | null) => {
      answered = true;
      resolve(changed ?? undefined);
      void worker.terminate();
    });
    worker.once("error", () => resolve(undefined));
    worker.once("exit", () => {
      if (!answered) resolve(undefined);
    });
  });
  return { changed, stop: () => void worker.terminate() };
}
