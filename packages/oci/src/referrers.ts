import { ExitCode, PkgError } from "@pkg/common";
import { parseDigest } from "./digest.js";
import { type Descriptor, type ImageIndex, MediaType } from "./types.js";

/** The fallback tag of the referrers tag scheme: `sha256-<hex>` (the hex cut to 64 characters). */
export function referrersTag(subjectDigest: string): string {
  const parsed = parseDigest(subjectDigest);
  if (!parsed) throw new PkgError(ExitCode.Data, `"${subjectDigest}" is not a digest`);
  return `${parsed.algorithm}-${parsed.hex.slice(0, 64)}`;
}

interface ManifestFields {
  mediaType?: unknown;
  artifactType?: unknown;
  config?: { mediaType?: unknown };
  subject?: unknown;
  annotations?: unknown;
  manifests?: unknown;
}

function parseFields(bytes: Buffer): ManifestFields | undefined {
  try {
    const parsed: unknown = JSON.parse(bytes.toString("utf8"));
    return parsed && typeof parsed === "object" && !Array.isArray(parsed)
      ? (parsed as ManifestFields)
      : undefined;
  } catch {
    return undefined;
  }
}

function isDescriptor(value: unknown): value is Descriptor {
  if (!value || typeof value !== "object") return false;
  const { mediaType, digest, size } = value as Record<string, unknown>;
  return typeof mediaType === "string" && typeof digest === "string" && typeof size === "number";
}

/** The `subject` of manifest bytes, when they have one. */
export function manifestSubject(bytes: Buffer): Descriptor | undefined {
  const subject = parseFields(bytes)?.subject;
  return isDescriptor(subject) ? subject : undefined;
}

/** The media type a manifest declares in its own `mediaType` field (else inferred from its shape). */
export function declaredMediaType(bytes: Buffer): string | undefined {
  const fields = parseFields(bytes);
  if (!fields) return undefined;
  if (typeof fields.mediaType === "string") return fields.mediaType;
  if (Array.isArray(fields.manifests)) return MediaType.ImageIndex;
  return fields.config ? MediaType.ImageManifest : undefined;
}

/** How a referrers listing describes a manifest: its descriptor plus `artifactType` and `annotations`. */
export function referrerDescriptor(bytes: Buffer, descriptor: Descriptor): Descriptor {
  const fields = parseFields(bytes) ?? {};
  const entry: Descriptor = {
    mediaType: descriptor.mediaType,
    digest: descriptor.digest,
    size: descriptor.size,
  };
  const artifactType =
    typeof fields.artifactType === "string" ? fields.artifactType : fields.config?.mediaType;
  if (typeof artifactType === "string") entry.artifactType = artifactType;
  if (fields.annotations && typeof fields.annotations === "object" && !Array.isArray(fields.annotations)) {
    entry.annotations = fields.annotations as Record<string, string>;
  }
  return entry;
}

/** The descriptors of an image index's bytes; undefined when the bytes are not an index. */
export function indexManifests(bytes: Buffer): Descriptor[] | undefined {
  const fields = parseFields(bytes);
  if (!fields || !Array.isArray(fields.manifests)) return undefined;
  if (
    fields.mediaType !== undefined &&
    fields.mediaType !== MediaType.ImageIndex &&
    fields.mediaType !== MediaType.DockerManifestList
  ) {
    return undefined;
  }
  return fields.manifests.filter(isDescriptor);
}

/** The fallback index with `entry` added (an entry of equal digest replaced). */
export function withReferrer(existing: Descriptor[] | undefined, entry: Descriptor): ImageIndex {
  const manifests = (existing ?? []).filter((d) => d.digest !== entry.digest);
  manifests.push(entry);
  return { schemaVersion: 2, mediaType: MediaType.ImageIndex, manifests };
}

export function filterByArtifactType(
  descriptors: Descriptor[],
  artifactType: string | undefined,
): Descriptor[] {
  return artifactType === undefined
    ? descriptors
    : descriptors.filter((d) => d.artifactType === artifactType);
}

/** Canonical bytes for an index the client writes itself. */
export function encodeIndex(index: ImageIndex): Buffer {
  return Buffer.from(JSON.stringify(index));
}
