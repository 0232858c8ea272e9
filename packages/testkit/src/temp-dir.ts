import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { trackDir, untrackDir } from "./cleanup.js";

export interface TempDir {
  path: string;
  /** Deletes the directory and everything in it; safe to call more than once. */
  remove(): Promise<void>;
}

/** A fresh directory under the OS temp dir, named `pkg-test-<prefix>…`, deleted at exit if not before. */
export async function tempDir(prefix = ""): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), `pkg-test-${prefix}`));
  trackDir(path);
  return {
    path,
    async remove() {
      await rm(path, { recursive: true, force: true });
      untrackDir(path);
    },
  };
}
