import { lstat, mkdir, readdir, rename, rmdir } from "node:fs/promises";
import { join } from "node:path";
import { dataError } from "@pkg/common";

/**
 * Moves every entry of `from` into `into`, descending into directories both sides have.
 * Layers of a package are overlap-free: a file both sides hold is a data error naming it.
 */
export async function mergeTree(from: string, into: string, relative = ""): Promise<void> {
  await mkdir(into, { recursive: true });
  for (const name of (await readdir(from)).sort()) {
    const source = join(from, name);
    const dest = join(into, name);
    const existing = await lstat(dest).catch(() => undefined);
    if (!existing) {
      await rename(source, dest);
      continue;
    }
    const incoming = await lstat(source);
    if (existing.isDirectory() && incoming.isDirectory()) {
      await mergeTree(source, dest, join(relative, name));
      await rmdir(source);
      continue;
    }
    throw dataError(`layers overlap: ${join(relative, name)} is in more than one layer`);
  }
}
