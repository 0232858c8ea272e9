import { randomBytes } from "node:crypto";
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { readdir, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { describeError, isPkgError, PkgError } from "./errors.js";

const TEMP_SUFFIX = ".partial";

/** A hidden, unique name in the same directory as `target`, so that renaming it onto `target` is atomic. */
export function tempPathBeside(target: string): string {
  return join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}${TEMP_SUFFIX}`);
}

/**
 * Removes what an interrupted writer left beside `target`: its temporary files and those of its
 * companions named `<target>.<suffix>` (a worker terminated mid-write cannot clean up after itself).
 */
export async function removeTempFilesBeside(target: string): Promise<void> {
  const prefix = `.${basename(target)}.`;
  const names = await readdir(dirname(target)).catch(() => []);
  const stale = names.filter((name) => name.startsWith(prefix) && name.endsWith(TEMP_SUFFIX));
  await Promise.all(stale.map((name) => rm(join(dirname(target), name), { recursive: true, force: true })));
}

/**
 * Lets `write` produce a file or directory at a temporary path beside `target`, then renames it
 * onto `target`. On any failure the temporary path is removed and the error passed on as it is,
 * so `target` is either complete or untouched.
 */
export async function renameIntoPlace<T>(target: string, write: (temp: string) => Promise<T>): Promise<T> {
  const temp = tempPathBeside(target);
  try {
    const result = await write(temp);
    await rename(temp, target);
    return result;
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
}

/** Replaces the file `target` with `content` whole, or leaves it untouched (`renameIntoPlace`). */
export function writeFileAtomically(
  target: string,
  content: string | Uint8Array,
  options: { mode?: number; flush?: boolean } = {},
): Promise<void> {
  return renameIntoPlace(target, (temp) => writeFile(temp, content, options));
}

/** `writeFileAtomically` without yielding: for a record that must be down before the next step. */
export function writeFileAtomicallySync(target: string, content: string | Uint8Array): void {
  const temp = tempPathBeside(target);
  try {
    writeFileSync(temp, content);
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * `renameIntoPlace`, for a command's outputs: errors that are not already PkgErrors are named
 * after `target` and `what`, and keep their exit code.
 */
export async function writeAtomically<T>(
  target: string,
  what: string,
  write: (temp: string) => Promise<T>,
): Promise<T> {
  try {
    return await renameIntoPlace(target, write);
  } catch (error) {
    if (isPkgError(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new PkgError(describeError(error).exitCode, `${target}: ${what} not written: ${message}`, {
      cause: error,
    });
  }
}
