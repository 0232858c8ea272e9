import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { sha256Of } from "@pkg/index";

/** Every regular file under `root`, as sorted paths relative to it. */
export async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

/** Every regular file under `root`, by relative path, as its digest. */
export async function treeDigests(root: string): Promise<Record<string, string>> {
  const tree: Record<string, string> = {};
  for (const file of await filesUnder(root)) tree[file] = sha256Of(await readFile(join(root, file)));
  return tree;
}
