import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { memoColumns, sameIdent } from "./memo.js";

/** Checks the identity of every file a memo file records (see identity-check.ts): posts the paths
 *  whose file changed since, or null for a file that is not a memo. */
const { file, out } = workerData as { file: string; out: string };

function changedFiles(): string[] | null {
  const columns = memoColumns(readFileSync(file));
  if (columns === undefined || columns.header.out !== out) return null;
  const { paths, idents } = columns;
  const changed: string[] = [];
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i] as string;
    const ident: [number, number, number] = [
      idents[3 * i] ?? 0,
      idents[3 * i + 1] ?? 0,
      idents[3 * i + 2] ?? 0,
    ];
    if (!sameIdent(join(out, path), ident)) changed.push(path);
  }
  return changed;
}

let result: string[] | null;
try {
  result = changedFiles();
} catch {
  result = null;
}
parentPort?.postMessage(result);
