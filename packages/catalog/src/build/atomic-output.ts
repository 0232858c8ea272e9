import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { lstat, mkdir, rename } from "node:fs/promises";
import { dirname, resolve, sep } from "node:path";
import { ExitCode, PkgError, usageError } from "@pkg/common";
import { siblingDir } from "./siblings.js";

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/** Refuses an output directory that is, or contains, a directory the build reads from: swapping it
 *  would delete the inputs. */
export function checkOutputDir(outDir: string, inputs: readonly string[]): void {
  const out = resolve(outDir);
  if (out === sep || out === dirname(out))
    throw usageError(`--out ${outDir}: refusing to replace a filesystem root`);
  for (const input of inputs) {
    const path = resolve(input);
    if (path === out || path.startsWith(out + sep)) {
      throw usageError(
        `--out ${outDir} would replace ${input}, which the build reads; choose another directory`,
      );
    }
  }
}

/**
 * Builds into a sibling temporary directory and swaps it in only when `build` succeeds: the old output
 * is renamed aside, the new one renamed in, the old one deleted. On failure the temporary directory
 * is removed and the previous output stays as it was.
 */
export async function withAtomicOutput<T>(outDir: string, build: (dir: string) => Promise<T>): Promise<T> {
  const out = resolve(outDir);
  if ((await exists(out)) && !(await lstat(out)).isDirectory()) {
    throw usageError(`--out ${outDir} exists and is not a directory`);
  }
  const suffix = randomBytes(6).toString("hex");
  const temp = siblingDir(out, "tmp", suffix);
  await mkdir(dirname(out), { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    throw new PkgError(ExitCode.IoError, `cannot create ${dirname(out)}: ${error.code ?? error.message}`);
  });
  await mkdir(temp).catch((error: NodeJS.ErrnoException) => {
    throw new PkgError(ExitCode.IoError, `cannot create ${temp}: ${error.code ?? error.message}`);
  });
  let result: T;
  try {
    result = await build(temp);
    if (await exists(out)) {
      if (!(await lstat(out)).isDirectory())
        throw usageError(`--out ${outDir} exists and is not a directory`);
      const old = siblingDir(out, "old", suffix);
      await rename(out, old);
      try {
        await rename(temp, out);
      } catch (error) {
        await rename(old, out);
        throw error;
      }
      // removed one directory at a time: the promise-based removal of a whole site at once holds a
      // few hundred MB at 10,000 packages
      rmSync(old, { recursive: true, force: true });
    } else {
      await rename(temp, out);
    }
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    if (error instanceof PkgError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code)
      throw new PkgError(ExitCode.IoError, `cannot write the site into ${outDir}: ${code}`, { cause: error });
    throw error;
  }
  return result;
}
