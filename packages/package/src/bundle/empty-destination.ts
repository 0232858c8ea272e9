import { lstat, readdir } from "node:fs/promises";
import { usageError } from "@pkg/common";

/**
 * Refuses a destination that exists and is not an empty directory (a file, a link, or a directory
 * with anything in it), so that writing there can never mix with or replace what someone keeps
 * there (exit 64; `hint` says what to do instead).
 */
export async function checkEmptyDestination(dir: string, hint?: string): Promise<void> {
  const info = await lstat(dir).catch(() => undefined);
  if (!info) return;
  if (!info.isDirectory() || (await readdir(dir)).length > 0) {
    throw usageError(`${dir}: already exists and is not an empty directory${hint ? `; ${hint}` : ""}`);
  }
}
