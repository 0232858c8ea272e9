/** OCI image-spec and distribution-spec shapes, as far as the pkg tools use them. */

export const MediaType = {
  ImageManifest: "application/vnd.oci.image.manifest.v1+json",
  ImageIndex: "application/vnd.oci.image.index.v1+json",
  EmptyJson: "application/vnd.oci.empty.v1+json",
  /** Docker's schema 2 types, accepted on read (registries and mirrors still serve them). */
  DockerManifest: "application/vnd.docker.distribution.manifest.v2+json",
  DockerManifestList: "application/vnd.docker.distribution.manifest.list.v2+json",
} as const;

export interface Platform {
  architecture: string;
  os: string;
  "os.version"?: string;
  "os.features"?: string[];
  variant?: string;
}

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  annotations?: Record<string, string>;
  artifactType?: string;
  platform?: Platform;
  urls?: string[];
}

export interface ImageManifest {
  schemaVersion: 2;
  mediaType: typeof MediaType.ImageManifest;
  artifactType?: string;
  config: Descriptor;
  layers: Descriptor[];
  subject?: Descriptor;
  annotations?: Record<string, string>;
}

export interface ImageIndex {
  schemaVersion: 2;
  mediaType: typeof MediaType.ImageIndex;
  artifactType?: string;
  manifests: Descriptor[];
  subject?: Descriptor;
  annotations?: Record<string, string>;
}

/** A manifest or index as stored: the exact bytes (their digest is the identity) and what they are. */
export interface StoredManifest {
  descriptor: Descriptor;
  bytes: Buffer;
}

/** Content for a blob upload: size and digest are known before the first byte is sent. */
export interface BlobSource {
  digest: string;
  size: number;
  /** Opens the content from the start; called again for a retried upload. */
  open(): NodeJS.ReadableStream | Buffer;
  /**
   * For content whose digest was computed from storage just before (a file hashed by the caller):
   * whether the storage still holds what was hashed (a file's size, mtime and ctime unchanged).
   * When present, a streamed upload skips hashing the bytes a second time and asks this before it
   * commits; otherwise every byte sent is hashed and checked against `digest`.
   */
  unchanged?(): Promise<boolean>;
}

export type BlobPushOutcome = "uploaded" | "existed" | "mounted";
