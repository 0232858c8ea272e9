import type { Logger } from "@pkg/common";
import {
  type BlobPushOutcome,
  type BlobSource,
  type Descriptor,
  MediaType,
  memoryBlob,
  type Target,
} from "@pkg/oci";
import pLimit from "p-limit";
import { type Metadata, serializeMetadata } from "../metadata/index.js";
import { type PlatformKey, toOciPlatform } from "../platform/index.js";
import { countedSource } from "./counted-source.js";
import type { LocalLayer } from "./layer-args.js";
import { canonicalJson, packageManifest } from "./manifest.js";
import { cascadePublication } from "./publication.js";
import { type IndexEntry, publishTags } from "./tags.js";

export interface PushRequest {
  target: Target;
  /** The tag named with `-i`: usually the primary tag `X.Y.Z_<timestamp>`. */
  tag: string;
  platform: PlatformKey;
  layers: LocalLayer[];
  metadata: Metadata;
  /** Also move the rolling tags (`X.Y.Z`, `X.Y`, `X`, `latest`) the cascade rule allows. */
  cascade: boolean;
  annotations: Record<string, string>;
  log: Logger;
  /**
   * False: push the blobs and the manifest only, and write no tag (the caller publishes `entry`
   * with `publishTags`, e.g. once for all platforms of a version). Default true.
   */
  writeTags?: boolean;
  /** Told the layer bytes read for upload so far and how many there are (progress). */
  onBytes?: (sent: number, total: number) => void;
}

export interface LayerReuse {
  mounted: number;
  uploaded: number;
  verified: number;
}

export interface PushReport {
  repository: string;
  platform: string;
  manifestDigest: string;
  /** Digest of the image index now behind the tag named with `-i`. */
  indexDigest: string;
  /** Every tag this push wrote, the named tag first. */
  tags: string[];
  layers: LayerReuse;
  /** The manifest as a tag's image index lists it. */
  entry: IndexEntry;
}

/** Blobs uploaded at once: enough to overlap round trips, few enough not to compete for one link. */
const BLOB_CONCURRENCY = 3;

/** The layers' sources, counted for `onBytes` when the request asks for progress. */
function layerSources(request: PushRequest): (at: number) => BlobSource {
  const { onBytes, layers } = request;
  if (onBytes === undefined) return (at) => (layers[at] as LocalLayer).source;
  const total = layers.reduce((sum, layer) => sum + layer.source.size, 0);
  const read = layers.map(() => 0);
  let sent = 0;
  onBytes(0, total);
  return (at) =>
    countedSource((layers[at] as LocalLayer).source, (bytes, restarted) => {
      const before = read[at] as number;
      read[at] = restarted ? 0 : before + bytes;
      sent += (read[at] as number) - before;
      onBytes(sent, total);
    });
}

/**
 * Runs `uploads` side by side, all given one signal: the first to fail aborts the others, and its
 * error is thrown once every upload has settled. A failed push leaves no upload running, which a
 * retry would otherwise race.
 */
async function allOrNone<T extends unknown[]>(
  uploads: {
    [K in keyof T]: (signal: AbortSignal) => Promise<T[K]>;
  },
): Promise<T> {
  const stop = new AbortController();
  let failure: { error: unknown } | undefined;
  const settled = await Promise.allSettled(
    uploads.map(async (upload) => {
      try {
        return await upload(stop.signal);
      } catch (error) {
        if (failure === undefined) {
          failure = { error };
          stop.abort(error);
        }
        throw error;
      }
    }),
  );
  if (failure !== undefined) throw failure.error;
  return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as T;
}

/**
 * Publishes one platform of a package: blobs first, then the manifest by digest, then each tag's
 * image index (named tag first, rolling tags after, unless `writeTags` is false), so no tag ever
 * points at content the repository does not hold.
 */
export async function pushPackage(request: PushRequest): Promise<PushReport> {
  const { target, log } = request;
  // the tag is checked before anything is uploaded
  cascadePublication(request.tag, request.cascade);
  const layers: LayerReuse = { mounted: 0, uploaded: 0, verified: 0 };
  const count = (outcome: BlobPushOutcome) => {
    if (outcome === "existed") layers.verified++;
    else layers[outcome]++;
  };

  const config = memoryBlob(serializeMetadata(request.metadata));
  // the config beside the layers, a few layers at a time: a registry that refuses us (auth,
  // reachability) does so at each upload's first request, before any of its bytes. Nothing refers
  // to a blob until the manifest does.
  const limit = pLimit(BLOB_CONCURRENCY);
  const source = layerSources(request);
  const [, ...layerDescriptors] = await allOrNone([
    (signal) => target.pushBlob(config, { signal }),
    ...request.layers.map(
      (layer, at) => (signal: AbortSignal) =>
        limit(async (): Promise<Descriptor> => {
          const outcome = await target.pushBlob(source(at), { mountFrom: layer.arg.mountFrom, signal });
          count(outcome);
          log.info(`${target.displayName}: layer ${layer.source.digest.slice(0, 19)} ${outcome}`);
          return { mediaType: layer.mediaType, digest: layer.source.digest, size: layer.source.size };
        }),
    ),
  ]);
  const manifestBytes = canonicalJson(
    packageManifest(
      { mediaType: MediaType.ImageManifest, digest: config.digest, size: config.size },
      layerDescriptors,
    ),
  );
  const manifest = await target.pushManifest(manifestBytes, MediaType.ImageManifest);
  const platform = toOciPlatform(request.platform);
  const entry: IndexEntry = {
    mediaType: MediaType.ImageManifest,
    digest: manifest.digest,
    size: manifest.size,
    platform,
  };

  const report: PushReport = {
    repository: target.displayName,
    platform: request.platform.key,
    manifestDigest: manifest.digest,
    indexDigest: "",
    tags: [],
    layers,
    entry,
  };
  if (request.writeTags === false) return report;
  const published = await publishTags({
    target,
    tag: request.tag,
    entries: [{ platform: request.platform, entry }],
    cascade: request.cascade,
    annotations: request.annotations,
    log,
  });
  return { ...report, indexDigest: published.indexDigest, tags: published.tags[0] ?? [] };
}
