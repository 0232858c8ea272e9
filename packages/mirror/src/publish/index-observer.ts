import type { Target } from "@pkg/oci";
import { indexPlatformKeys } from "../plan/index-platforms.js";
import { isRecordTag } from "../plan/record-tags.js";
import type { IndexRecord } from "../plan/summary-document.js";

export interface IndexObserver {
  /** Work through this target: every index read or written behind a version record tag is noted. */
  readonly target: Target;
  /**
   * Record tag -> the index last seen behind it, by digest and platforms; null when the tag was
   * seen holding no index (absent, or a single manifest), so nothing may be claimed for it.
   */
  readonly seen: ReadonlyMap<string, IndexRecord | null>;
}

/**
 * A view of `target` that remembers, per version record tag, the last image index this run read
 * or wrote there. A push merges, writes and then reads its tag back, so what is remembered for a
 * pushed tag is the index as verified after the write: the published summary can be updated from
 * it without reading anything again.
 */
export function observeIndexes(target: Target): IndexObserver {
  const seen = new Map<string, IndexRecord | null>();
  const note = (tag: string, digest: string, bytes: Buffer | undefined) => {
    if (!isRecordTag(tag)) return;
    let platforms: string[] | undefined;
    try {
      platforms = bytes === undefined ? undefined : indexPlatformKeys(bytes, tag);
    } catch {
      platforms = undefined; // not an index: the caller reports that; the summary claims nothing
    }
    seen.set(tag, platforms === undefined ? null : { digest, platforms: [...new Set(platforms)].sort() });
  };
  const observed: Target = {
    displayName: target.displayName,
    repository: target.repository,
    blobSize: (digest, options) => target.blobSize(digest, options),
    pushBlob: (source, options) => target.pushBlob(source, options),
    fetchBlob: (digest, expectedSize, options) => target.fetchBlob(digest, expectedSize, options),
    fetchManifest: async (reference, options) => {
      const stored = await target.fetchManifest(reference, options);
      note(reference, stored?.descriptor.digest ?? "", stored?.bytes);
      return stored;
    },
    pushManifest: async (bytes, mediaType, tag, options) => {
      const descriptor = await target.pushManifest(bytes, mediaType, tag, options);
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
  return { target: observed, seen };
}
