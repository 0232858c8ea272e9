import { buffer } from "node:stream/consumers";
import { dataError } from "@pkg/common";
import { sha256Of } from "@pkg/index";
import { IMAGE_INDEX_MAX_BYTES, LOGO_MAX_BYTES, README_MAX_BYTES } from "@pkg/index/read";
import { isReservedTag, type ObservedDescription } from "@pkg/index/write";
import { type Descriptor, parseManifestDocument, type TargetReader } from "@pkg/oci";
import { DESCRIPTION_TAG, PackageMediaType } from "../media-types.js";
import { descriptionFields } from "./description.js";

/** What an announce reads from the package's repository, each thing once however often a
 *  destination regenerates its change. */
export interface SourceObservations {
  readonly name: string;
  /** Every tag the repository holds, split into those the index may list and reserved ones. */
  listTags(): Promise<{ tags: string[]; reserved: string[] }>;
  /** The bytes of the image index `tag` resolves to, as the registry serves them (exit 65 when
   *  the tag does not exist or is not an image index). */
  imageIndex(tag: string): Promise<Uint8Array>;
  /** The description at `__pkg.desc`, or null when the repository has none. */
  description(fallbackTitle: string): Promise<ObservedDescription | null>;
}

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load();
    return pending;
  };
}

export function observeSource(source: TargetReader, signal?: AbortSignal): SourceObservations {
  const name = source.displayName;
  const indexes = new Map<string, Promise<Uint8Array>>();

  const fetchImageIndex = async (tag: string): Promise<Uint8Array> => {
    const stored = await source.fetchManifest(tag, { signal });
    if (stored === undefined) throw dataError(`${name}:${tag}: no such tag`);
    if (stored.bytes.length > IMAGE_INDEX_MAX_BYTES) {
      throw dataError(
        `${name}:${tag}: image index of ${stored.bytes.length} bytes, more than an index stores`,
      );
    }
    if (parseManifestDocument(stored.bytes, `${name}:${tag}`).kind !== "index") {
      throw dataError(
        `${name}:${tag}: an image manifest, not an image index; the index lists packages' image indexes`,
      );
    }
    return stored.bytes;
  };

  const fetchLayer = async (layer: Descriptor, max: number, what: string): Promise<Uint8Array> => {
    if (layer.size > max)
      throw dataError(
        `${name}:${DESCRIPTION_TAG}: ${what} of ${layer.size} bytes, more than the ${max} an index stores`,
      );
    return buffer(await source.fetchBlob(layer.digest, layer.size, { signal }));
  };

  let description: Promise<ObservedDescription | null> | undefined;
  const fetchDescription = async (fallbackTitle: string): Promise<ObservedDescription | null> => {
    const stored = await source.fetchManifest(DESCRIPTION_TAG, { signal });
    if (stored === undefined) return null;
    const doc = parseManifestDocument(stored.bytes, `${name}:${DESCRIPTION_TAG}`);
    if (doc.kind !== "manifest") throw dataError(`${name}:${DESCRIPTION_TAG}: not a description manifest`);
    const { layers, annotations } = doc.manifest;
    const readmeLayer = layers.find((l) => l.mediaType === PackageMediaType.Readme);
    const logoLayer = layers.find(
      (l) => l.mediaType === PackageMediaType.LogoSvg || l.mediaType === PackageMediaType.LogoPng,
    );
    const readme = readmeLayer && (await fetchLayer(readmeLayer, README_MAX_BYTES, "README"));
    const logo = logoLayer && (await fetchLayer(logoLayer, LOGO_MAX_BYTES, "logo"));
    const readmeText = readme === undefined ? undefined : Buffer.from(readme).toString("utf8");
    const observed: ObservedDescription = {
      // the index names objects by sha256 whatever digest the registry uses
      digest: sha256Of(stored.bytes),
      ...descriptionFields(annotations, readmeText, fallbackTitle),
    };
    if (readme !== undefined) observed.readme = readme;
    if (logo !== undefined && logoLayer !== undefined) {
      observed.logo = { bytes: logo, ext: logoLayer.mediaType === PackageMediaType.LogoSvg ? "svg" : "png" };
    }
    return observed;
  };

  return {
    name,
    listTags: once(async () => {
      const all = await source.listTags({ ifMissing: "error", signal });
      return { tags: all.filter((t) => !isReservedTag(t)), reserved: all.filter(isReservedTag) };
    }),
    imageIndex: (tag) => {
      let pending = indexes.get(tag);
      if (pending === undefined) {
        pending = fetchImageIndex(tag);
        indexes.set(tag, pending);
      }
      return pending;
    },
    description: (fallbackTitle) => {
      description ??= fetchDescription(fallbackTitle);
      return description;
    },
  };
}
