import { access, rm, rmdir } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "@pkg/common";
import { type Metadata, readMetadataFile, writeMetadataFile } from "@pkg/package";
import { createBundle } from "@pkg/package/bundle";
import { prepareContent } from "../content/prepare.js";
import { selectMetadata } from "../content/select-metadata.js";
import { contentSettings } from "../content/settings.js";
import type { Downloader } from "../fetch/downloader.js";
import { assetTypeFor } from "../spec/asset-type.js";
import type { MirrorSpec } from "../spec/mirror-spec.js";
import type { VariantSpec } from "../spec/variants.js";
import { unpackAsset } from "../unpack/unpack.js";
import type { SyncTask } from "./sync-tasks.js";

export const BUNDLE_FILE = "bundle.tar.zst";
export const METADATA_FILE = "metadata.json";

/** `<work-dir>/<spec name>/<version>/<platform slug>`: `linux/amd64+libc.musl` -> `linux-amd64-libc.musl`. */
export function taskDirectory(
  workDir: string,
  name: string,
  task: Pick<SyncTask, "version" | "column">,
): string {
  const slug = task.column.id.replace(/[^A-Za-z0-9._-]+/g, "-");
  return join(workDir, name, task.version.version, slug);
}

/** A built pair: its bundle and the metadata to push with it. */
export interface BuiltPair {
  bundle: string;
  metadata: Metadata;
  /** True when an earlier run's bundle was taken as it is. */
  reusedBundle: boolean;
  /** True when the download was an earlier run's (no request made). */
  reusedDownload: boolean;
}

export interface BuildPairDeps {
  spec: MirrorSpec;
  specDir: string;
  /** The target as users see it, for messages. */
  targetName: string;
  downloader: Downloader;
  /** Runs one bundle task within `max_bundles`. */
  bundleSlot: <T>(work: () => Promise<T>) => Promise<T>;
  compressionThreads: number;
  log: Logger;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * The bundle an earlier run left complete: the bundle with the digest sidecar `createBundle` writes
 * (`<bundle>.digest.json`) and metadata.json
 * beside it (metadata.json is written last, so its presence means the rest is whole).
 */
async function finishedBundle(dir: string): Promise<BuiltPair | undefined> {
  const bundle = join(dir, BUNDLE_FILE);
  const metadataFile = join(dir, METADATA_FILE);
  const present = await Promise.all([bundle, `${bundle}.digest.json`, metadataFile].map(exists));
  if (present.includes(false)) return undefined;
  return { bundle, metadata: await readMetadataFile(metadataFile), reusedBundle: true, reusedDownload: true };
}

function variantOf(spec: MirrorSpec, task: SyncTask): VariantSpec | undefined {
  const { variant, label } = task.column.set;
  return spec.variants?.find((v) =>
    variant === undefined ? v.default || v.name === undefined : v.name === label,
  );
}

/**
 * One pair from asset to bundle: download and verify (within `max_downloads`), then unpack,
 * prepare the content and bundle it (within `max_bundles`). Any failure throws and concerns this
 * pair only; what is complete stays in the task directory for the next run.
 */
export async function buildPair(task: SyncTask, dir: string, deps: BuildPairDeps): Promise<BuiltPair> {
  const earlier = await finishedBundle(dir);
  const what = `${task.version.version} ${task.column.id}`;
  if (earlier) {
    deps.log.info(`${what}: reusing the bundle of an earlier run`);
    return earlier;
  }
  const { spec } = deps;
  deps.log.progress(`${what}: downloading ${task.asset.name}`);
  const downloaded = await deps.downloader.download({
    version: task.version.version,
    asset: task.asset,
    dest: join(dir, "download", task.asset.name.replace(/[/\\]/g, "_")),
  });
  return deps.bundleSlot(async () => {
    const variant = variantOf(spec, task);
    const platform = task.column.platform;
    const tree = join(dir, "tree");
    await rm(tree, { recursive: true, force: true });
    deps.log.progress(`${what}: unpacking`);
    await unpackAsset(downloaded.path, tree, {
      assetType: assetTypeFor(variant?.asset_type ?? spec.asset_type, platform),
      platform,
      assetName: task.asset.name,
    });
    const selected = await selectMetadata(spec, variant, platform, deps.specDir);
    const prepared = await prepareContent({
      tree,
      metadata: selected.metadata,
      platform,
      settings: contentSettings(spec, variant),
      target: deps.targetName,
      version: task.version.version,
      log: deps.log,
    });
    deps.log.progress(`${what}: bundling`);
    const bundle = join(dir, BUNDLE_FILE);
    await createBundle({ sourceDir: tree, output: bundle, threads: deps.compressionThreads });
    await writeMetadataFile(join(dir, METADATA_FILE), prepared.metadata);
    await rm(tree, { recursive: true, force: true });
    deps.log.info(`${what}: bundled`);
    return { bundle, metadata: prepared.metadata, reusedBundle: false, reusedDownload: downloaded.reused };
  });
}

/** Removes a pushed pair's directory, and its version's directory once empty. */
export async function removeTaskDirectory(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await rmdir(join(dir, "..")).catch(() => {});
}
