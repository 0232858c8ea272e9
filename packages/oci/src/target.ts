import type { OperationOptions } from "./abort.js";
import type { BlobPushOutcome, BlobSource, Descriptor, StoredManifest } from "./types.js";

/**
 * Every method takes `options.signal` last: aborting cuts the operation in flight (a request, a
 * body being read or sent, a file being written) and rejects it with the signal's reason when
 * that is a PkgError, else with exit 75 naming the operation. An aborted write leaves no partial
 * blob and no tag pointing at missing content.
 */
export type { OperationOptions };

/** What a tag listing does for a repository that does not exist. */
export interface ListTagsOptions extends OperationOptions {
  /** "empty" (default): no tags; "error": PkgError 65 naming the repository ("no such repository"). */
  ifMissing?: "empty" | "error";
}

/** The reading half of a Target: what a check or plan step needs, and nothing that writes. */
export interface TargetReader {
  /** For messages: `registry.example.com/ns/tool` or `layout:/path/ns/tool`. */
  readonly displayName: string;
  /** The repository path (`ns/tool`), as a cross-repository mount names it. */
  readonly repository: string;

  /** The stored size of a blob, or undefined when the repository does not have it. */
  blobSize(digest: string, options?: OperationOptions): Promise<number | undefined>;
  /**
   * Streams a blob; the stream errors (PkgError 65) if the bytes do not match the digest, or
   * the size: `expectedSize` when given (a descriptor's size), else the stored size.
   */
  fetchBlob(
    digest: string,
    expectedSize?: number,
    options?: OperationOptions,
  ): Promise<NodeJS.ReadableStream>;
  /** A manifest or index by tag or digest, verified; undefined when absent. */
  fetchManifest(reference: string, options?: OperationOptions): Promise<StoredManifest | undefined>;
  /** Every tag of the repository (all pages); see `ifMissing` for a repository that does not exist. */
  listTags(options?: ListTagsOptions): Promise<string[]>;
  /** Manifests whose `subject` is `digest` (referrers API, else the `sha256-<hex>` tag scheme). */
  referrers(digest: string, artifactType?: string, options?: OperationOptions): Promise<Descriptor[]>;
}

/**
 * One repository to read and write OCI content: a registry repository, an OCI image layout
 * directory or an in-memory store. Every read is verified against its digest; a write never
 * leaves a tag pointing at content that is not fully stored.
 */
export interface Target extends TargetReader {
  /**
   * Stores a blob unless it is present already. With `mountFrom`, a cross-repository mount from
   * that repository (same registry, layout root or memory store) is tried first, falling back to an upload.
   */
  pushBlob(source: BlobSource, options?: { mountFrom?: string } & OperationOptions): Promise<BlobPushOutcome>;
  /** Stores manifest bytes under their digest and, with `tag`, points the tag at them. */
  pushManifest(
    bytes: Buffer,
    mediaType: string,
    tag?: string,
    options?: OperationOptions,
  ): Promise<Descriptor>;
  /**
   * Deletes a manifest by digest (absent: nothing to do). A registry must allow deletes (exit 82
   * otherwise); a layout or memory target refuses (exit 65) while a tag still points at it.
   */
  deleteManifest(digest: string, options?: OperationOptions): Promise<void>;
  /**
   * Removes a tag; the manifest it pointed at stays (absent tag: nothing to do). A registry that
   * cannot delete a tag reference fails with exit 82.
   */
  untag(tag: string, options?: OperationOptions): Promise<void>;
}

const READER_METHODS = ["blobSize", "fetchBlob", "fetchManifest", "listTags", "referrers"] as const;

/** A view of `target` with only the reading methods: no write is reachable through it, even by a cast. */
export function readOnly(target: TargetReader): TargetReader {
  const view: Record<string, unknown> = {};
  for (const name of READER_METHODS) view[name] = target[name].bind(target);
  Object.defineProperty(view, "displayName", { value: target.displayName, enumerable: true });
  Object.defineProperty(view, "repository", { value: target.repository, enumerable: true });
  return Object.freeze(view) as unknown as TargetReader;
}
