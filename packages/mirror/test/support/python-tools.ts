// Python tools the tests need, pip-installed once into node_modules/.cache (never into the
// machine's Python): the pinned `packaging` for the standards' cross-check and the pinned `uv`
// resolver for lock derivation.
import { pipTarget } from "@pkg/testkit";
import { UV_RELEASE } from "../../src/pipeline/plan/derive-lock.js";

export const PACKAGING = "packaging==26.4";
export const UV = `uv==${UV_RELEASE}`;

/** A directory holding the pinned `packaging`, for PYTHONPATH. */
export function packagingPath(): Promise<string> {
  return pipTarget("pkg-python-packaging", PACKAGING, "packaging/pylock.py");
}

/** The pinned uv binary. */
export async function uvBinary(): Promise<string> {
  return `${await pipTarget("pkg-python-uv", UV, "bin/uv")}/bin/uv`;
}
