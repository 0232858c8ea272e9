import { createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { ExitCode, PkgError } from "@pkg/common";
import type { Descriptor, TargetReader } from "@pkg/oci";
import { extractBundle } from "../bundle/extract.js";
import { byteCounter } from "../push/counted-source.js";
import { layerPath, type Store } from "./home.js";
import { removeTree } from "./remove-tree.js";

/** How a layer is come by: whether fetching is allowed, and what progress hears of it. */
export interface LayerSteps {
  offline: boolean;
  fetching?: () => void;
  /** Bytes of the blob received so far. */
  onBytes?: (received: number) => void;
  extracting?: () => void;
}

/**
 * The directory layer `layer` is extracted in, `layers/<alg>/<hex>/`: extracted once. Otherwise
 * its blob is downloaded into `work` (verified against digest and size as it streams, and again
 * as it is extracted), extracted there and renamed into place, so the directory appears whole or
 * not at all. A process that loses the rename to another extracting the same layer keeps the
 * winner's directory and drops its own; the blob itself is not kept.
 */
export async function ensureLayer(
  store: Store,
  target: TargetReader,
  layer: Descriptor,
  work: string,
  steps: LayerSteps,
): Promise<string> {
  const dir = layerPath(store, layer.digest);
  if (await isDirectory(dir)) return dir;
  if (steps.offline) {
    throw new PkgError(
      ExitCode.Unavailable,
      `layer ${layer.digest} of ${target.displayName} is not in the package store, and --offline forbids fetching it`,
    );
  }
  const hex = layer.digest.slice(layer.digest.indexOf(":") + 1);
  const file = join(work, `layer-${hex}`);
  steps.fetching?.();
  let received = 0;
  const counter = byteCounter((bytes) => {
    received += bytes;
    steps.onBytes?.(received);
  });
  await pipeline(await target.fetchBlob(layer.digest, layer.size), counter, createWriteStream(file));
  const tree = join(work, `tree-${hex}`);
  steps.extracting?.();
  await extractBundle(file, tree, { expectedDigest: layer.digest });
  await rm(file);
  await mkdir(dirname(dir), { recursive: true });
  await renameUnlessPresent(tree, dir);
  return dir;
}

/**
 * Renames the directory `from` onto `to`; when `to` appeared meanwhile (another process put the
 * same content there first) `from` is dropped instead.
 */
export async function renameUnlessPresent(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if (!(await isDirectory(to))) throw error;
    await removeTree(from);
  }
}

export async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}
