import { randomBytes } from "node:crypto";
import { mkdir, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { type Store, tempRoot } from "./home.js";
import { removeTree } from "./remove-tree.js";

/** Work older than this was left by a process that died: no install takes a day. */
const STALE_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * A new directory of this process under `temp/`, on the store's file system so that what is made
 * there renames into place atomically. Made like any directory (0777 less the umask), since what
 * is made in it becomes part of the store.
 */
export async function makeWorkDir(store: Store): Promise<string> {
  const root = tempRoot(store);
  await mkdir(root, { recursive: true });
  const dir = join(root, `${process.pid}-${randomBytes(6).toString("hex")}`);
  await mkdir(dir);
  return dir;
}

/** Removes work directories a crashed process left behind (older than a day). */
export async function sweepStaleWork(store: Store, now = Date.now()): Promise<void> {
  const root = tempRoot(store);
  for (const name of await readdir(root).catch(() => [])) {
    const path = join(root, name);
    const info = await stat(path).catch(() => undefined);
    if (info && now - info.mtimeMs > STALE_AFTER_MS) await removeTree(path);
  }
}
