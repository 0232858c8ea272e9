import { ExitCode, PkgError } from "@pkg/common";
import { type Descriptor, MediaType } from "./types.js";

/** The annotation that names a tag in an OCI image layout's index.json. */
export const REF_NAME = "org.opencontainers.image.ref.name";

/** index.json of a layout; fields this client does not know are kept as they are. */
export interface LayoutIndex {
  schemaVersion: 2;
  mediaType?: string;
  manifests: Descriptor[];
  [field: string]: unknown;
}

export function emptyLayoutIndex(): LayoutIndex {
  return { schemaVersion: 2, mediaType: MediaType.ImageIndex, manifests: [] };
}

export function parseLayoutIndex(bytes: Buffer, path: string): LayoutIndex {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw new PkgError(ExitCode.Data, `${path} is not valid JSON`, { cause: error });
  }
  const manifests = (parsed as { manifests?: unknown } | null)?.manifests;
  if (!parsed || typeof parsed !== "object" || !Array.isArray(manifests)) {
    throw new PkgError(ExitCode.Data, `${path} is not an OCI image index (no "manifests" list)`);
  }
  return parsed as LayoutIndex;
}

/** The tags of a layout, in index order. */
export function layoutTags(index: LayoutIndex): string[] {
  const tags = index.manifests
    .map((d) => d.annotations?.[REF_NAME])
    .filter((t): t is string => t !== undefined);
  return [...new Set(tags)];
}

export function findTag(index: LayoutIndex, tag: string): Descriptor | undefined {
  return index.manifests.find((d) => d.annotations?.[REF_NAME] === tag);
}

/** The index without any entry for `tag`. */
export function withoutTag(index: LayoutIndex, tag: string): LayoutIndex {
  return { ...index, manifests: index.manifests.filter((d) => d.annotations?.[REF_NAME] !== tag) };
}

/** The index with `tag` pointing at `descriptor` (one entry per tag). */
export function withTag(index: LayoutIndex, tag: string, descriptor: Descriptor): LayoutIndex {
  const next = withoutTag(index, tag);
  next.manifests.push({
    mediaType: descriptor.mediaType,
    digest: descriptor.digest,
    size: descriptor.size,
    annotations: { [REF_NAME]: tag },
  });
  return next;
}
