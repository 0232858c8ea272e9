import { randomBytes } from "node:crypto";
import { lstat, readdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { describeError, isPkgError, PkgError, usageError } from "@pkg/common";

/** A hidden, unique name in the same directory as `target`, so that renaming it onto `target` is atomic. */
export function tempPathBeside(target: string): string {
  return join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.partial`);
}

/**
 * Removes what an interrupted writer left beside `target`: its temporary files and those of its
 * companions named `<target>.<suffix>` (a worker terminated mid-write cannot clean up after itself).
 */
export async function removeTempFilesBeside(target: string): Promise<void> {
  const prefix = `.${basename(target)}.`;
  const names = await readdir(dirname(target)).catch(() => []);
  const stale = names.filter((name) => name.startsWith(prefix) && name.endsWith(".partial"));
  await Promise.all(stale.map((name) => rm(join(dirname(target), name), { recursive: true, force: true })));
}

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

/**
 * Lets `write` produce a file or directory at a temporary path beside `target`, then renames it onto
 * `target`. On any failure the temporary path is removed, so `target` is either complete or untouched.
 * Errors that are not already PkgErrors are named after `target` and keep their exit code.
 */
export async function writeAtomically<T>(
  target: string,
  what: string,
  write: (temp: string) => Promise<T>,
): Promise<T> {
  const temp = tempPathBeside(target);
  try {
    const result = await write(temp);
    await rename(temp, target);
    return result;
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    if (isPkgError(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new PkgError(describeError(error).exitCode, `${target}: ${what} not written: ${message}`, {
      cause: error,
    });
  }
}
