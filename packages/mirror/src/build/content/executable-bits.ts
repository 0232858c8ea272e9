import { chmod, lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Metadata } from "@pkg/package";

const ANY_EXEC = 0o111;

/**
 * Makes every regular file anywhere in `tree` whose name is a declared `binaries` entry
 * executable: mode 0755 when it has no exec bit at all. A mode with any exec bit is kept (never
 * narrowed), symlinks and undeclared files are left alone, and a declared name the tree lacks is
 * no error. Returns the changed files, `/`-separated relative to the tree, sorted.
 */
export async function applyExecutableBits(tree: string, metadata: Metadata): Promise<string[]> {
  const declared = new Set(metadata.binaries ?? []);
  if (declared.size === 0) return [];
  const changed: string[] = [];
  const walk = async (dir: string, prefix: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const relative = prefix + entry.name;
      if (entry.isDirectory()) await walk(path, `${relative}/`);
      else if (entry.isFile() && declared.has(entry.name) && (await lacksExec(path))) {
        await chmod(path, 0o755);
        changed.push(relative);
      }
    }
  };
  await walk(tree, "");
  return changed.sort();
}

async function lacksExec(path: string): Promise<boolean> {
  return ((await lstat(path)).mode & ANY_EXEC) === 0;
}
