import type { BlobPushOutcome, BlobSource, Descriptor, StoredManifest } from "./types.js";

/**
 * One repository to read and write OCI content: a registry repository or an OCI image layout
 * directory. Every read is verified against its digest; a write never leaves a tag pointing at
 * content that is not fully stored.
 */
export interface Target {
  /** For messages: `registry.example.com/ns/tool` or `layout:/path/ns/tool`. */
  readonly displayName: string;
  /** The repository path (`ns/tool`), as a cross-repository mount names it. */
  readonly repository: string;

  /** The stored size of a blob, or undefined when the repository does not have it. */
  blobSize(digest: string): Promise<number | undefined>;
  /**
   * Stores a blob unless it is present already. With `mountFrom`, a cross-repository mount from
   * that repository (same registry or layout root) is tried first, falling back to an upload.
   */
  pushBlob(source: BlobSource, options?: { mountFrom?: string }): Promise<BlobPushOutcome>;
  /**
   * Streams a blob; the stream errors (PkgError 65) if the bytes do not match the digest, or
   * the size: `expectedSize` when given (a descriptor's size), else the stored size.
   */
  fetchBlob(digest: string, expectedSize?: number): Promise<NodeJS.ReadableStream>;

  /** A manifest or index by tag or digest, verified; undefined when absent. */
  fetchManifest(reference: string): Promise<StoredManifest | undefined>;
  /** Stores manifest bytes under their digest and, with `tag`, points the tag at them. */
  pushManifest(bytes: Buffer, mediaType: string, tag?: string): Promise<Descriptor>;
  /** Every tag of the repository (all pages). */
  listTags(): Promise<string[]>;
  /** Manifests whose `subject` is `digest` (referrers API, else the `sha256-<hex>` tag scheme). */
  referrers(digest: string, artifactType?: string): Promise<Descriptor[]>;
}
