import {
  type Descriptor,
  type ImageIndex,
  MediaType,
  type Platform,
  parseManifestDocument,
} from "@pkg/oci/documents";
import { PackageMediaType } from "../media-types.js";

/** Platform equality for "replace the entry with an equal platform" (features compared as sets). */
export type PlatformEquality = (a: Platform, b: Platform) => boolean;

/**
 * The tag's image index after publishing `entry`: the entry with an equal platform is replaced,
 * every other platform is kept, and `annotations` are merged over the index's own (a key given
 * replaces that key only). Entries stay sorted by platform so the bytes do not depend on the order
 * in which platforms were pushed.
 */
export function mergeIntoIndex(
  existing: ImageIndex | undefined,
  entry: Descriptor & { platform: Platform },
  annotations: Record<string, string>,
  equal: PlatformEquality,
): ImageIndex {
  const kept = (existing?.manifests ?? []).filter((m) => !(m.platform && equal(m.platform, entry.platform)));
  const manifests = [...kept, entry].sort((a, b) => byCodePoint(platformSortKey(a), platformSortKey(b)));
  const merged = { ...(existing?.annotations ?? {}), ...annotations };
  const index: ImageIndex = {
    schemaVersion: 2,
    mediaType: MediaType.ImageIndex,
    artifactType: PackageMediaType.Artifact,
    manifests,
  };
  if (Object.keys(merged).length > 0) index.annotations = sortedRecord(merged);
  return index;
}

function platformSortKey(descriptor: Descriptor): string {
  const p = descriptor.platform;
  if (!p) return `~${descriptor.digest}`;
  const features = [...(p["os.features"] ?? [])].sort().join(",");
  return [p.os, p.architecture, p.variant ?? "", p["os.version"] ?? "", features, descriptor.digest].join(
    "\u0000",
  );
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortedRecord(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => byCodePoint(a, b)));
}

/**
 * The image index in stored bytes (`what` names them in errors), or undefined when they hold a
 * single manifest; bytes that are neither are bad data (65), as `parseManifestDocument` says.
 */
export function asImageIndex(bytes: Buffer, what: string): ImageIndex | undefined {
  const doc = parseManifestDocument(bytes, what);
  return doc.kind === "index" ? doc.index : undefined;
}
