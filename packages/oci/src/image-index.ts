import { ExitCode, isJsonObject, PkgError } from "@pkg/common";
import { type ImageIndex, type ImageManifest, MediaType } from "./types.js";

/** What stored manifest bytes hold: an image index, or a single image manifest. */
export type ManifestDocument =
  | { kind: "index"; index: ImageIndex }
  | { kind: "manifest"; manifest: ImageManifest };

const indexTypes = new Set<string>([MediaType.ImageIndex, MediaType.DockerManifestList]);
const manifestTypes = new Set<string>([MediaType.ImageManifest, MediaType.DockerManifest]);

const corrupt = (what: string, why: string) => new PkgError(ExitCode.Data, `${what} ${why}`);

/**
 * Reads stored manifest bytes (`what` names them in errors: `registry/ns/tool:1.2`). An image
 * index needs a `manifests` list of descriptors (each with a string `mediaType` and `digest` and a
 * numeric `size`); an image manifest needs `config` and a `layers` list. Anything else, or bytes
 * that are not JSON, is bad data: exit 65 naming `what`, never an internal error.
 */
export function parseManifestDocument(bytes: Buffer, what: string): ManifestDocument {
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw corrupt(what, "is not JSON");
  }
  if (!isJsonObject(doc)) throw corrupt(what, "is not a JSON object");
  const mediaType = doc.mediaType;
  if (mediaType !== undefined && typeof mediaType !== "string")
    throw corrupt(what, "has a mediaType that is not a string");
  if (Array.isArray(doc.manifests) && (mediaType === undefined || indexTypes.has(mediaType))) {
    doc.manifests.forEach((entry, i) => {
      if (!isDescriptor(entry)) throw corrupt(what, `has a manifests[${i}] that is not a descriptor`);
    });
    return { kind: "index", index: doc as unknown as ImageIndex };
  }
  if (
    isJsonObject(doc.config) &&
    Array.isArray(doc.layers) &&
    (mediaType === undefined || manifestTypes.has(mediaType))
  ) {
    return { kind: "manifest", manifest: doc as unknown as ImageManifest };
  }
  throw corrupt(
    what,
    mediaType
      ? `is a ${mediaType}, neither an image index nor an image manifest`
      : "is neither an image index nor an image manifest",
  );
}

/** The image index in stored bytes; a single manifest where an index belongs is bad data (65), as is anything corrupt. */
export function parseImageIndex(bytes: Buffer, what: string): ImageIndex {
  const doc = parseManifestDocument(bytes, what);
  if (doc.kind !== "index") throw corrupt(what, "holds a single manifest, not an image index");
  return doc.index;
}

function isDescriptor(value: unknown): boolean {
  return (
    isJsonObject(value) &&
    typeof value.mediaType === "string" &&
    typeof value.digest === "string" &&
    typeof value.size === "number" &&
    (value.platform === undefined ||
      (isJsonObject(value.platform) &&
        typeof value.platform.os === "string" &&
        typeof value.platform.architecture === "string"))
  );
}
