import { MediaType, type Platform, parseImageIndex, parseManifestDocument, type Target } from "@pkg/oci";
import { PackageMediaType, platformKeyFromOci } from "@pkg/package";
import { isRecordTag } from "../plan/record-tags.js";
import type { IndexRecord } from "../plan/summary-document.js";

export interface IndexObserver {
  /** Work through this target: every index read or written behind a version record tag is noted. */
  readonly target: Target;
  /**
   * Record tag -> the index last seen behind it, by digest, platforms and (for the platforms whose
   * package manifest this run wrote or read) config digests; null when the tag was seen holding
   * no index (absent, or a single manifest), so nothing may be claimed for it.
   */
  readonly seen: ReadonlyMap<string, IndexRecord | null>;
  /** Index digest -> platform key -> manifest digest, for every index seen behind a record tag. */
  readonly indexes: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/**
 * A view of `target` that remembers, per version record tag, the last image index this run read
 * or wrote there. A push merges, writes and then reads its tag back, so what is remembered for a
 * pushed tag is the index as verified after the write: the published summary can be updated from
 * it without reading anything again. The config digest of every package manifest written or read
 * through it is remembered too (content-addressed: true wherever that manifest is listed), so an
 * index's record carries the configs of the platforms whose manifests the run handled.
 */
export function observeIndexes(target: Target): IndexObserver {
  /** Per record tag, the index last seen there (digest, platform -> manifest), or null. */
  const noted = new Map<string, { digest: string; manifests: Map<string, string> } | null>();
  const indexes = new Map<string, Map<string, string>>();
  const configOf = new Map<string, string>();
  const learn = (digest: string, bytes: Buffer) => {
    const config = packageConfig(bytes);
    if (config !== undefined) configOf.set(digest, config);
  };
  const note = (tag: string, digest: string, bytes: Buffer | undefined) => {
    if (!isRecordTag(tag)) return;
    let manifests: Map<string, string> | undefined;
    try {
      manifests = bytes === undefined ? undefined : platformManifests(bytes, tag);
    } catch {
      manifests = undefined; // not an index: the caller reports that; the summary claims nothing
    }
    if (manifests !== undefined) indexes.set(digest, manifests);
    noted.set(tag, manifests === undefined ? null : { digest, manifests });
  };
  const observed: Target = {
    displayName: target.displayName,
    repository: target.repository,
    blobSize: (digest, options) => target.blobSize(digest, options),
    pushBlob: (source, options) => target.pushBlob(source, options),
    fetchBlob: (digest, expectedSize, options) => target.fetchBlob(digest, expectedSize, options),
    fetchManifest: async (reference, options) => {
      const stored = await target.fetchManifest(reference, options);
      if (stored) learn(stored.descriptor.digest, stored.bytes);
      note(reference, stored?.descriptor.digest ?? "", stored?.bytes);
      return stored;
    },
    pushManifest: async (bytes, mediaType, tag, options) => {
      const descriptor = await target.pushManifest(bytes, mediaType, tag, options);
      if (mediaType === MediaType.ImageManifest) learn(descriptor.digest, bytes);
      if (tag !== undefined) note(tag, descriptor.digest, bytes);
      return descriptor;
    },
    listTags: (options) => target.listTags(options),
    referrers: (digest, artifactType, options) => target.referrers(digest, artifactType, options),
    deleteManifest: (digest, options) => target.deleteManifest(digest, options),
    untag: async (tag, options) => {
      await target.untag(tag, options);
      note(tag, "", undefined);
    },
  };
  return {
    target: observed,
    // built when asked: a manifest read after its index (as the drift comparison reads) still counts
    get seen() {
      const seen = new Map<string, IndexRecord | null>();
      for (const [tag, index] of noted) {
        seen.set(tag, index === null ? null : indexRecord(index.digest, index.manifests, configOf));
      }
      return seen;
    },
    indexes,
  };
}

/** The config digest of a pkg package manifest; undefined for anything else. */
function packageConfig(bytes: Buffer): string | undefined {
  try {
    const doc = parseManifestDocument(bytes, "manifest");
    if (doc.kind !== "manifest" || doc.manifest.mediaType !== MediaType.ImageManifest) return undefined;
    return doc.manifest.config.mediaType === PackageMediaType.Config ? doc.manifest.config.digest : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Platform key -> the manifest an index lists for it (the last entry of a key, as the drift scan
 * reads it); entries no key can spell are not ours. Throws (exit 65) when `bytes` is no index.
 */
function platformManifests(bytes: Buffer, tag: string): Map<string, string> {
  const manifests = new Map<string, string>();
  for (const entry of parseImageIndex(bytes, tag).manifests) {
    const key = entry.platform ? platformKeyFromOci(entry.platform as Platform) : undefined;
    if (key) manifests.set(key.key, entry.digest);
  }
  return manifests;
}

/** An index's record: its platform keys and the configs known of the manifests it lists. */
function indexRecord(
  digest: string,
  manifests: ReadonlyMap<string, string>,
  configOf: ReadonlyMap<string, string>,
): IndexRecord {
  const configs = new Map<string, string>();
  for (const [key, manifest] of manifests) {
    const config = configOf.get(manifest);
    if (config !== undefined) configs.set(key, config);
  }
  return {
    digest,
    platforms: [...manifests.keys()].sort(),
    ...(configs.size === 0 ? {} : { configs }),
  };
}
