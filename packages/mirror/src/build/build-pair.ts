import { access, rm, rmdir } from "node:fs/promises";
import { join } from "node:path";
import { describeError, ExitCode, type Logger, PkgError, type TaskProgress } from "@pkg/common";
import {
  type Metadata,
  parsePlatformKey,
  platformSlug,
  readMetadataFile,
  writeMetadataFile,
} from "@pkg/package";
import type { BundlePool } from "@pkg/package/bundle";
import type { PairJob } from "../plan/jobs.js";
import { assetTypeFor } from "../spec/asset-type.js";
import type { MirrorSpec } from "../spec/mirror-spec.js";
import type { VariantSpec } from "../spec/variants.js";
import { prepareContent } from "./content/prepare.js";
import { selectMetadata } from "./content/select-metadata.js";
import { contentSettings } from "./content/settings.js";
import type { DownloadedAsset } from "./fetch/download-asset.js";
import type { Downloader } from "./fetch/downloader.js";
import type { Semaphore } from "./semaphore.js";
import type { UnpackPool } from "./unpack/unpack-pool.js";

export const BUNDLE_FILE = "bundle.tar.zst";
export const METADATA_FILE = "metadata.json";

/**
 * `<work-dir>/<spec name>/<version>/<slug>`: the platform's slug (`linux/amd64+libc.musl` ->
 * `linux-amd64-musl`, as the pipeline's artefacts and PKG_PLATFORM spell it), prefixed
 * `<variant>-` for a variant's pair.
 */
export function taskDirectory(
  workDir: string,
  name: string,
  pair: Pick<PairJob, "version" | "platform" | "variant">,
): string {
  const slug = platformSlug(parsePlatformKey(pair.platform, ExitCode.Data));
  return join(workDir, name, pair.version, pair.variant === undefined ? slug : `${pair.variant}-${slug}`);
}

/** A layer file to push (absolute path), and for an environment package the wheel it holds. */
export interface LayerFile {
  path: string;
  /** `sha256:<hex>` of the file as checked when it was decided or built (not hashed again to push). */
  digest?: string;
  /** The wheel's file name, PEP 503 name, download url and hex sha256: its shared layer's name. */
  wheel?: { name: string; package: string; url: string; sha256: string };
}

/** A built pair: its bundle and the metadata to push with it. */
export interface BuiltPair {
  bundle: string;
  /** An environment package's layers, in order (`bundle` is then the first). */
  layers?: LayerFile[];
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
  /**
   * Pairs between the start of their download and the start of their unpacking: downloads run
   * ahead of the unpacking by this much and no more, so that they share the cores with the later
   * stages instead of taking them all at the start, and pairs reach unpacking in plan order.
   */
  lookahead: Semaphore;
  /** Holds one pair from unpacking to its bundle: bounds the unpacked trees waiting on disk. */
  pairSlot: Slot;
  /** Runs one unpacking and content preparation, within `max_bundles`. */
  unpackSlot: Slot;
  /** Unpacks assets on worker threads. */
  unpacks: Pick<UnpackPool, "unpack">;
  /** Writes bundles on worker threads, `max_bundles` at once, while this thread goes on. */
  bundles: Pick<BundlePool, "create">;
  compressionThreads: number;
  log: Logger;
  /** Aborted when the run stops (`--fail-fast`): no step of the pair starts after it, running ones end. */
  signal?: AbortSignal;
}

export type Slot = <T>(work: () => Promise<T>) => Promise<T>;

/** What a pair's build throws once the run has stopped. */
export function stoppedError(what: string): PkgError {
  return new PkgError(ExitCode.Failed, `${what}: cancelled`, { detail: "cancelled" });
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

/** The pair's variant: the default one (or the unnamed one) when it has none, else the one it names. */
function variantOf(spec: MirrorSpec, pair: PairJob): VariantSpec | undefined {
  const { variant } = pair;
  return spec.variants?.find((v) =>
    variant === undefined ? v.default || v.name === undefined : v.name === variant,
  );
}

/**
 * One pair from asset to bundle: download and verify (within `max_downloads`, and no further
 * ahead of the unpacking than `lookahead` allows), then unpack on a worker thread and prepare the
 * content (within `max_bundles`), then bundle it on a worker thread (within `max_bundles`), so
 * that the next pair unpacks while this one compresses. Any failure throws and
 * concerns this pair only; what is complete stays in the task directory for the next run.
 */
export async function buildPair(pair: PairJob, dir: string, deps: BuildPairDeps): Promise<BuiltPair> {
  // The look-ahead turn is asked for before anything else is awaited, so pairs queue in plan order
  // and the oldest version, which is pushed first, is never held back by younger ones.
  const ahead = await deps.lookahead.acquire();
  const what = `${pair.version} ${pair.column}`;
  const { signal } = deps;
  const task = deps.log.tasks.start(what);
  try {
    const built = await fetchAndBundle(pair, dir, { ...deps, task, ahead });
    task.done(built.reusedBundle ? "reused the bundle of an earlier run" : "bundled");
    return built;
  } catch (error) {
    if (signal?.aborted) task.stopped();
    else task.failed(describeError(error).line);
    throw error;
  } finally {
    ahead();
  }
}

async function fetchAndBundle(
  pair: PairJob,
  dir: string,
  deps: BuildPairDeps & { task: TaskProgress; ahead: () => void },
): Promise<BuiltPair> {
  const what = `${pair.version} ${pair.column}`;
  const { signal, task } = deps;
  const earlier = await finishedBundle(dir);
  if (earlier) return earlier;
  if (signal?.aborted) throw stoppedError(what);
  task.state(`waiting to download ${pair.asset.name}`);
  let receiving = false;
  const downloaded = await deps.downloader.download({
    version: pair.version,
    asset: pair.asset,
    dest: join(dir, "download", pair.asset.name.replace(/[/\\]/g, "_")),
    signal,
    onBytes: (received, total) => {
      if (!receiving) task.state("downloading");
      receiving = true;
      task.bytes(received, total);
    },
  });
  return await bundlePair(pair, dir, downloaded, { ...deps, unpacking: deps.ahead });
}

/** Unpacks, prepares and bundles a downloaded pair; `unpacking` is called as its unpacking starts. */
async function bundlePair(
  pair: PairJob,
  dir: string,
  downloaded: DownloadedAsset,
  deps: BuildPairDeps & { unpacking: () => void; task: TaskProgress },
): Promise<BuiltPair> {
  const { spec, signal } = deps;
  const what = `${pair.version} ${pair.column}`;
  const stopCheck = () => {
    if (signal?.aborted) throw stoppedError(what);
  };
  const tree = join(dir, "tree");
  return deps.pairSlot(async () => {
    const prepared = await deps.unpackSlot(async () => {
      deps.unpacking();
      stopCheck();
      const variant = variantOf(spec, pair);
      const { platform } = pair;
      await rm(tree, { recursive: true, force: true });
      deps.task.state("unpacking");
      const assetType = assetTypeFor(variant?.asset_type ?? spec.asset_type, platform);
      await deps.unpacks.unpack(
        downloaded.path,
        tree,
        { assetType, platform, assetName: pair.asset.name },
        signal,
      );
      const selected = await selectMetadata(spec, variant, platform, deps.specDir);
      return prepareContent({
        tree,
        metadata: selected.metadata,
        platform,
        settings: contentSettings(spec, variant),
        target: deps.targetName,
        version: pair.version,
        log: deps.log,
      });
    });
    stopCheck();
    deps.task.state("bundling");
    const bundle = join(dir, BUNDLE_FILE);
    await deps.bundles.create({ sourceDir: tree, output: bundle, threads: deps.compressionThreads }, signal);
    await writeMetadataFile(join(dir, METADATA_FILE), prepared.metadata);
    await rm(tree, { recursive: true, force: true });
    return { bundle, metadata: prepared.metadata, reusedBundle: false, reusedDownload: downloaded.reused };
  });
}

/** Removes a pushed pair's directory, and its version's directory once empty. */
export async function removeTaskDirectory(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await rmdir(join(dir, "..")).catch(() => {});
}
