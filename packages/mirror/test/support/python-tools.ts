// Python tools the tests need, pip-installed once into node_modules/.cache (never into the
// machine's Python): the pinned `packaging` for the standards' cross-check and the pinned `uv`
// resolver for lock derivation.
import { existsSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { runCommand } from "@pkg/testkit";
import { UV_RELEASE } from "../../src/pipeline/plan/derive-lock.js";

export const PACKAGING = "packaging==26.4";
export const UV = `uv==${UV_RELEASE}`;

const cache = fileURLToPath(new URL("../../../../node_modules/.cache/", import.meta.url));

/**
 * `pip install --target` of `requirement` into `node_modules/.cache/<dir>/python` unless `probe`
 * (relative to it) is already there; returns that directory. Fails with the install hint when
 * python3 or pip cannot provide it.
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
    throw new Error(
      `${requirement} is needed by the tests and could not be installed (${(error as Error).message.split("\n")[0]}); ` +
        `install it with: python3 -m pip install --target ${target} ${requirement}`,
    );
  }
  await rm(target, { recursive: true, force: true });
  await rename(work, target);
  return target;
}

/** A directory holding the pinned `packaging`, for PYTHONPATH. */
export function packagingPath(): Promise<string> {
  return pipTarget("pkg-python-packaging", PACKAGING, "packaging/pylock.py");
}

/** The pinned uv binary. */
export async function uvBinary(): Promise<string> {
  return `${await pipTarget("pkg-python-uv", UV, "bin/uv")}/bin/uv`;
}
