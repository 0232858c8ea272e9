import { parentPort, workerData } from "node:worker_threads";
import { changedPaths } from "./memo.js";
import { readMemoColumns } from "./memo-format.js";

/** Checks the identity of the files a memo file records (see identity-check.ts), a chunk at a time
 *  from the shared counter: posts the paths whose file changed since, or null for a file that is
 *  not a memo of this output. */
const { file, out, counter, chunk } = workerData as {
  file: string;
  out: string;
  counter: Int32Array;
  chunk: number;
};

/** What the worker checked (the files' count and last path, for the main thread to see it read the
 *  same memo), and what changed. */
export type IdentityResult = { files: number; last: string; changed: string[] } | null;

let result: IdentityResult;
try {
  const columns = readMemoColumns(file);
  result =
    columns === undefined || columns.header.out !== out
      ? null
      : {
          files: columns.paths.length,
          last: columns.paths.at(-1) ?? "",
          changed: changedPaths(
            out,
            columns.paths,
            columns.idents,
            () => Atomics.add(counter, 0, chunk),
            chunk,
          ),
        };
} catch {
  result = null;
}
parentPort?.postMessage(result);
