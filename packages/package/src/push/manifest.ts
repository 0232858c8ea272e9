import type { Descriptor, ImageIndex, ImageManifest } from "@pkg/oci";
import { MediaType } from "@pkg/oci";
import { PackageMediaType } from "../media-types.js";

/** Serialises an OCI document exactly one way, so the same content always has the same digest. */
export function canonicalJson(value: ImageManifest | ImageIndex): Buffer {
  return Buffer.from(JSON.stringify(value), "utf8");
}

/** The package manifest: metadata.json as config, the bundles as layers; no timestamps. */
export function packageManifest(config: Descriptor, layers: Descriptor[]): ImageManifest {
  return {
    schemaVersion: 2,
    mediaType: MediaType.ImageManifest,
    artifactType: PackageMediaType.Artifact,
    config: { mediaType: PackageMediaType.Config, digest: config.digest, size: config.size },
    layers: layers.map((layer) => ({ mediaType: layer.mediaType, digest: layer.digest, size: layer.size })),
  };
}
