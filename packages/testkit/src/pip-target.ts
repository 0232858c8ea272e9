import { existsSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { runCommand } from "./run-command.js";

/** The repository's node_modules/.cache (the same depth from src/ and dist/). */
const cache = fileURLToPath(new URL("../../../node_modules/.cache/", import.meta.url));

/**
 * `pip install --no-deps --target` of `requirement` (pinned) into `node_modules/.cache/<dir>/python`
 * unless `probe` (relative to it) is already there, never into the machine's Python; returns that
 * directory. Installed aside and renamed into place, so a stopped install is never taken as done.
 * Fails with the install hint when python3 or pip cannot provide it.
 */
export async function pipTarget(dir: string, requirement: string, probe: string): Promise<string> {
  const target = `${cache}${dir}/python`;
  if (existsSync(`${target}/${probe}`)) return target;
  const work = `${target}.work-${process.pid}`;
  await rm(work, { recursive: true, force: true });
  await mkdir(`${cache}${dir}`, { recursive: true });
  try {
    await runCommand("python3", [
      "-m",
      "pip",
      "install",
      "--quiet",
      "--no-deps",
      "--target",
      work,
      requirement,
    ]);
  } catch (error) {
    await rm(work, { recursive: true, force: true });
    throw new Error(
      `${requirement} is needed by the tests and could not be installed (${(error as Error).message.split("\n")[0]}); ` +
        `install it with: python3 -m pip install --target ${target} ${requirement}`,
    );
  }
  await rm(target, { recursive: true, force: true });
  await rename(work, target);
  return target;
}
