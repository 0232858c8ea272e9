import { ExitCode, type Logger, PkgError } from "@pkg/common";
import {
  type BlobPushOutcome,
  type Descriptor,
  MediaType,
  memoryBlob,
  type Platform,
  type Target,
} from "@pkg/oci";
import pLimit from "p-limit";
import { type Metadata, serializeMetadata } from "../metadata/index.js";
import { type PlatformKey, platformsEqual, toOciPlatform } from "../platform/index.js";
import { asImageIndex, mergeIntoIndex } from "./index-merge.js";
import type { LocalLayer } from "./layer-args.js";
import { canonicalJson, packageManifest } from "./manifest.js";
import { cascadePublication, planPublication } from "./publication.js";

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
}

/** Blobs uploaded at once: enough to overlap round trips, few enough not to compete for one link. */
const BLOB_CONCURRENCY = 3;

/** How often a tag index is re-merged when another writer changed it between our read and write. */
const MAX_MERGE_ATTEMPTS = 5;

/**
 * Publishes one platform of a package: blobs first, then the manifest by digest, then each tag's
 * image index (named tag first, rolling tags after), so no tag ever points at content the
 * repository does not hold.
 */
export async function pushPackage(request: PushRequest): Promise<PushReport> {
  const { target, log } = request;
  const publication = cascadePublication(request.tag, request.cascade);
  const layers: LayerReuse = { mounted: 0, uploaded: 0, verified: 0 };
  const count = (outcome: BlobPushOutcome) => {
    if (outcome === "existed") layers.verified++;
    else layers[outcome]++;
  };

  const config = memoryBlob(serializeMetadata(request.metadata));
  // the small config first: a registry that refuses us (auth, reachability) says so before any
  // layer starts; then the layers side by side, a few at a time. Nothing refers to a blob until
  // the manifest does.
  await target.pushBlob(config);
  const limit = pLimit(BLOB_CONCURRENCY);
  const layerDescriptors = await Promise.all(
    request.layers.map((layer) =>
      limit(async (): Promise<Descriptor> => {
        log.progress(`${target.displayName}: layer ${layer.arg.path} (${layer.source.size} bytes)`);
        const outcome = await target.pushBlob(layer.source, { mountFrom: layer.arg.mountFrom });
        count(outcome);
        log.info(`${target.displayName}: layer ${layer.source.digest.slice(0, 19)} ${outcome}`);
        return { mediaType: layer.mediaType, digest: layer.source.digest, size: layer.source.size };
      }),
    ),
  );
  const manifestBytes = canonicalJson(
    packageManifest(
      { mediaType: MediaType.ImageManifest, digest: config.digest, size: config.size },
      layerDescriptors,
    ),
  );
  const manifest = await target.pushManifest(manifestBytes, MediaType.ImageManifest);
  const platform = toOciPlatform(request.platform);
  const entry = {
    mediaType: MediaType.ImageManifest,
    digest: manifest.digest,
    size: manifest.size,
    platform,
  };

  const tags = await planPublication(target, request.tag, request.platform, publication);
  let indexDigest = "";
  for (const tag of tags) {
    const digest = await mergeTag(target, tag, entry, request.annotations);
    if (tag === request.tag) indexDigest = digest;
    log.info(`${target.displayName}:${tag} -> ${digest.slice(0, 19)}`);
  }
  return {
    repository: target.displayName,
    platform: request.platform.key,
    manifestDigest: manifest.digest,
    indexDigest,
    tags,
    layers,
  };
}

/**
 * GET the tag's index, replace our platform's entry, PUT it back; then read the tag again and
 * re-merge if a concurrent writer replaced it in between (registries offer no compare-and-swap).
 */
async function mergeTag(
  target: Target,
  tag: string,
  entry: Descriptor & { platform: Platform },
  annotations: Record<string, string>,
): Promise<string> {
  for (let attempt = 1; attempt <= MAX_MERGE_ATTEMPTS; attempt++) {
    const current = await target.fetchManifest(tag);
    const existing = current ? asImageIndex(current.bytes) : undefined;
    if (current && !existing) {
      throw new PkgError(
        ExitCode.Data,
        `${target.displayName}:${tag} holds a single manifest, not an image index; refusing to replace it`,
      );
    }
    const merged = mergeIntoIndex(existing, entry, annotations, platformsEqual);
    const written = await target.pushManifest(canonicalJson(merged), MediaType.ImageIndex, tag);
    const check = await target.fetchManifest(tag);
    const after = check ? asImageIndex(check.bytes) : undefined;
    if (
      after?.manifests.some(
        (m) => m.digest === entry.digest && m.platform && platformsEqual(m.platform, entry.platform),
      )
    ) {
      return written.digest;
    }
  }
  throw new PkgError(
    ExitCode.Transient,
    `${target.displayName}:${tag} kept changing under concurrent writers; retry the push`,
  );
}
