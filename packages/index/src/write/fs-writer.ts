import { mkdir, realpath } from "node:fs/promises";
import { dirname, join } from "node:path";
import { ExitCode, isInside, PkgError, writeFileAtomically } from "@pkg/common";
import { CATALOG_INDEX_PATH, CONFIG_PATH } from "./package-write.js";

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

function checkRelPath(relPath: string): void {
  const parts = relPath.split("/");
  if (!parts.every((part) => SEGMENT.test(part) && part !== "." && part !== "..")) {
    throw new TypeError(`not an index file path: ${JSON.stringify(relPath)}`);
  }
}

/** The order that keeps every state a reader can see consistent: content-addressed objects, then
 *  package roots (which name them), then config.json, then c/index.json (which names the roots). */
function rank(relPath: string): number {
  if (relPath === CATALOG_INDEX_PATH) return 3;
  if (relPath === CONFIG_PATH) return 2;
  return relPath.includes("/o/") ? 0 : 1;
}

export function writeOrder(relPaths: Iterable<string>): string[] {
  return [...relPaths].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Writes index files into the directory `root` (created when missing), each to a temporary name in
 * its own directory and renamed over its path, so a reader sees the old file or the new one, never
 * part of one; in `writeOrder`, so a reader never meets a root naming an object not yet there.
 * Never deletes. Returns the paths in the order written. A directory that leads outside `root`
 * (a symbolic link) is refused.
 */
export async function writeIndexFiles(
  root: string,
  files: ReadonlyMap<string, Uint8Array>,
): Promise<string[]> {
  const order = writeOrder(files.keys());
  for (const relPath of order) checkRelPath(relPath);
  await mkdir(root, { recursive: true });
  const realRoot = await realpath(root);
  for (const relPath of order) {
    const target = join(realRoot, ...relPath.split("/"));
    const parent = dirname(target);
    await mkdir(parent, { recursive: true });
    if (!isInside(realRoot, await realpath(parent))) {
      throw new PkgError(ExitCode.Data, `${join(root, relPath)}: its directory leads outside ${root}`);
    }
    try {
      await writeFileAtomically(target, files.get(relPath) as Uint8Array, { flush: true });
    } catch (error) {
      throw new PkgError(
        ExitCode.IoError,
        `${join(root, relPath)}: cannot write (${(error as NodeJS.ErrnoException).code ?? error})`,
      );
    }
  }
  return order;
}
