import { chmod, mkdir, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { EnvEntry, Metadata } from "@pkg/package";

/** Test support: one entry of a content tree, keyed by its `/`-separated path. */
export type TreeEntry = { file: string | Uint8Array; mode: number } | { symlink: string } | { dir: true };

/** Writes `entries` under `root` with exactly the modes given (umask does not apply to chmod). */
export async function writeTree(root: string, entries: Record<string, TreeEntry>): Promise<void> {
  for (const [path, entry] of Object.entries(entries)) {
    const at = join(root, path);
    await mkdir("dir" in entry ? at : dirname(at), { recursive: true });
    if ("file" in entry) {
      await writeFile(at, entry.file);
      await chmod(at, entry.mode);
    } else if ("symlink" in entry) {
      await symlink(entry.symlink, at);
    }
  }
}

/** Metadata with the given path variables (`[key, value, visibility?]`) and optional `binaries`. */
export function metadataWith(
  paths: Array<[string, string, EnvEntry["visibility"]?]>,
  binaries?: string[],
): Metadata {
  const env: EnvEntry[] = paths.map(([key, value, visibility]) => ({
    key,
    type: "path",
    value,
    ...(visibility === undefined ? {} : { visibility }),
  }));
  return { type: "bundle", version: 1, env, ...(binaries === undefined ? {} : { binaries }) };
}
