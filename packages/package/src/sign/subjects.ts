import { dataError } from "@pkg/common";
import type { Descriptor, TargetReader } from "@pkg/oci";
import { formatPlatform, type PlatformKey, platformKeyFromOci } from "../platform/index.js";
import { asImageIndex } from "../push/index-merge.js";

/** A manifest to sign or verify: an image index, or one platform's manifest. */
export interface Subject {
  descriptor: Descriptor;
  /** `registry/ns/tool:1.2 (linux/amd64)` or `registry/ns/tool:1.2 (index)`, for messages. */
  label: string;
  /** The platform key of a platform manifest. */
  platform?: string;
}

/**
 * What a tag (or digest) holds to sign or verify: without `platform`, the image index and every
 * platform manifest it lists; with it, that platform's manifest alone. A tag holding a single
 * manifest is that manifest.
 */
export async function referenceSubjects(
  target: TargetReader,
  reference: string,
  platform: PlatformKey | undefined,
): Promise<Subject[]> {
  const name = `${target.displayName}${reference.startsWith("sha256:") ? "@" : ":"}${reference}`;
  const top = await target.fetchManifest(reference);
  if (!top) throw dataError(`${name} not found`);
  const index = asImageIndex(top.bytes, name);
  if (!index) return [{ descriptor: top.descriptor, label: name }];
  const entries = index.manifests.flatMap((entry) => {
    const key = entry.platform ? platformKeyFromOci(entry.platform) : undefined;
    return key && (platform === undefined || key.key === platform.key) ? [{ entry, key: key.key }] : [];
  });
  if (platform !== undefined && entries.length === 0) {
    const offered = index.manifests.map((m) => (m.platform ? formatPlatform(m.platform) : "?")).join(", ");
    throw dataError(`${name} has no ${platform.key} entry (it has: ${offered || "none"})`);
  }
  const manifests: Subject[] = entries.map(({ entry, key }) => ({
    descriptor: { mediaType: entry.mediaType, digest: entry.digest, size: entry.size },
    label: `${name} (${key})`,
    platform: key,
  }));
  if (platform !== undefined) return manifests;
  return [{ descriptor: top.descriptor, label: `${name} (index)` }, ...manifests];
}
