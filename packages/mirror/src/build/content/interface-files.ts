import type { Stats } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Metadata } from "@pkg/package";
import { scanDirectories } from "../../spec/bin-scan-target.js";

/** A regular file directly inside one of the directories a package offers its consumers. */
export interface InterfaceFile {
  /** `/`-separated path inside the tree: `bin/tool`. */
  relative: string;
  /** The entry's own name (a symlink's, not its target's). */
  name: string;
  /** Absolute path of the entry. */
  path: string;
  /** The stats of what the entry resolves to (symlinks followed). */
  stats: Stats;
}

/** The directories of the `${installPath}`-rooted PATH entries consumers see. */
export function interfacePathDirectories(metadata: Metadata): string[] {
  return scanDirectories({ ...metadata, env: (metadata.env ?? []).filter((entry) => entry.key === "PATH") });
}

/**
 * The regular files directly inside `dirs` (relative to `tree`), symlinks followed: no recursion;
 * a missing directory, a dangling link and anything that is not a file are left out.
 */
export async function interfaceFiles(tree: string, dirs: readonly string[]): Promise<InterfaceFile[]> {
  const files: InterfaceFile[] = [];
  for (const dir of dirs) {
    for (const name of await namesIn(join(tree, dir))) {
      const path = join(tree, dir, name);
      const stats = await stat(path).catch(absentAsUndefined);
      if (stats?.isFile()) files.push({ relative: `${dir}/${name}`, name, path, stats });
    }
  }
  return files;
}

async function namesIn(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(absentAsUndefined);
  return (names ?? []).sort();
}

/** Not being there (or a link loop) is an answer here, not a failure. */
function absentAsUndefined(error: NodeJS.ErrnoException): undefined {
  if (error.code === "ENOENT" || error.code === "ENOTDIR" || error.code === "ELOOP") return undefined;
  throw error;
}
