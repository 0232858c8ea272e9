import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ExitCode, PkgError } from "@pkg/common";
import { abortError, checkAborted, destroyOnAbort, type OperationOptions } from "./abort.js";
import { digestLike, parseDigest, requireDigest, sha256Digest, VerifyingStream } from "./digest.js";
import { MAX_MANIFEST_SIZE } from "./limits.js";
import { isDigestReference, isValidRepository, isValidTag } from "./reference.js";
import { declaredMediaType, filterByArtifactType, manifestSubject, referrerDescriptor } from "./referrers.js";
import type { ListTagsOptions, Target } from "./target.js";
import {
  type BlobPushOutcome,
  type BlobSource,
  type Descriptor,
  MediaType,
  type StoredManifest,
} from "./types.js";

interface MemoryRepository {
  blobs: Map<string, Buffer>;
  manifests: Map<string, { mediaType: string; bytes: Buffer }>;
  tags: Map<string, string>;
}

/** The content of one in-memory "registry": its repositories, shared by the targets opened on it. */
export class MemoryStore {
  readonly #repositories = new Map<string, MemoryRepository>();

  /** The repository's content; created (empty) when `create`, else undefined while nothing was pushed. */
  repository(name: string, create: true): MemoryRepository;
  repository(name: string, create?: boolean): MemoryRepository | undefined;
  repository(name: string, create = false): MemoryRepository | undefined {
    let found = this.#repositories.get(name);
    if (found === undefined && create) {
      found = { blobs: new Map(), manifests: new Map(), tags: new Map() };
      this.#repositories.set(name, found);
    }
    return found;
  }
}

/** Reads a blob source whole, stopping at the signal; size and digest are checked by the caller. */
async function readSource(
  source: BlobSource,
  signal: AbortSignal | undefined,
  what: string,
): Promise<Buffer> {
  const opened = source.open();
  if (Buffer.isBuffer(opened)) return opened;
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  try {
    await pipeline(
      opened,
      new VerifyingStream(source.digest, source.size, what),
      sink,
      signal ? { signal } : {},
    );
  } catch (error) {
    if (signal?.aborted) throw abortError(signal, what);
    throw error;
  }
  return Buffer.concat(chunks);
}

/**
 * A repository held in memory, for tests that need a Target and not a registry: digest and size
 * checked on every push and fetch, tags only on stored manifests, referrers found by scanning the
 * stored manifests' subjects, delete and untag as a layout does them, signals honoured. Targets
 * opened on one `MemoryStore` share it, so a cross-repository mount works between them.
 */
export class MemoryTarget implements Target {
  readonly displayName: string;
  readonly repository: string;
  readonly store: MemoryStore;

  constructor(repository: string, store: MemoryStore = new MemoryStore()) {
    if (!isValidRepository(repository))
      throw new PkgError(ExitCode.Usage, `invalid repository "${repository}"`);
    this.repository = repository;
    this.store = store;
    this.displayName = `memory:${repository}`;
  }

  get #content(): MemoryRepository | undefined {
    return this.store.repository(this.repository);
  }

  async blobSize(digest: string, options: OperationOptions = {}): Promise<number | undefined> {
    const what = `HEAD blob ${digest} in ${this.displayName}`;
    requireDigest(digest, what);
    checkAborted(options.signal, what);
    return this.#content?.blobs.get(digest)?.length;
  }

  async pushBlob(
    source: BlobSource,
    options: { mountFrom?: string } & OperationOptions = {},
  ): Promise<BlobPushOutcome> {
    const what = `push blob ${source.digest} to ${this.displayName}`;
    const signal = options.signal;
    if (parseDigest(source.digest)?.algorithm !== "sha256") {
      throw new PkgError(ExitCode.Data, `${what}: only sha256 digests are written`);
    }
    checkAborted(signal, what);
    const existing = this.#content?.blobs.get(source.digest);
    if (existing !== undefined) {
      if (existing.length !== source.size) {
        throw new PkgError(
          ExitCode.Data,
          `${what}: stored with ${existing.length} bytes, not ${source.size}`,
        );
      }
      return "existed";
    }
    const from = options.mountFrom;
    if (from !== undefined && from !== this.repository) {
      if (!isValidRepository(from))
        throw new PkgError(ExitCode.Usage, `${what}: invalid mount source "${from}"`);
      const other = this.store.repository(from)?.blobs.get(source.digest);
      if (other !== undefined && other.length === source.size) {
        this.store.repository(this.repository, true).blobs.set(source.digest, other);
        return "mounted";
      }
    }
    const bytes = await readSource(source, signal, what);
    if (bytes.length !== source.size) {
      throw new PkgError(ExitCode.Data, `${what}: the content has ${bytes.length} bytes, not ${source.size}`);
    }
    if (digestLike(source.digest, bytes) !== source.digest) {
      throw new PkgError(ExitCode.Data, `${what}: the content does not hash to ${source.digest}`);
    }
    checkAborted(signal, what);
    this.store.repository(this.repository, true).blobs.set(source.digest, bytes);
    return "uploaded";
  }

  async fetchBlob(
    digest: string,
    expectedSize?: number,
    options: OperationOptions = {},
  ): Promise<NodeJS.ReadableStream> {
    const what = `fetch blob ${digest} from ${this.displayName}`;
    requireDigest(digest, what);
    checkAborted(options.signal, what);
    const bytes = this.#content?.blobs.get(digest);
    if (bytes === undefined) throw new PkgError(ExitCode.Data, `${what}: not in the store`);
    if (expectedSize !== undefined && bytes.length !== expectedSize) {
      throw new PkgError(
        ExitCode.Data,
        `${what}: stored with ${bytes.length} bytes, expected ${expectedSize}`,
      );
    }
    const verifier = new VerifyingStream(digest, bytes.length, what);
    Readable.from([bytes]).pipe(verifier);
    destroyOnAbort(verifier, options.signal, what);
    return verifier;
  }

  async fetchManifest(
    reference: string,
    options: OperationOptions = {},
  ): Promise<StoredManifest | undefined> {
    const what = `fetch manifest ${reference} from ${this.displayName}`;
    const byDigest = isDigestReference(reference, what);
    checkAborted(options.signal, what);
    const content = this.#content;
    const digest = byDigest ? reference : content?.tags.get(reference);
    if (digest === undefined) return undefined;
    const stored = content?.manifests.get(digest);
    if (stored === undefined) {
      if (byDigest) return undefined;
      throw new PkgError(ExitCode.Data, `${what}: the tag names ${digest}, which is missing`);
    }
    if (digestLike(digest, stored.bytes) !== digest) {
      throw new PkgError(ExitCode.Data, `${what}: the stored content does not hash to ${digest}`);
    }
    return {
      descriptor: { mediaType: stored.mediaType, digest, size: stored.bytes.length },
      bytes: stored.bytes,
    };
  }

  async pushManifest(
    bytes: Buffer,
    mediaType: string,
    tag?: string,
    options: OperationOptions = {},
  ): Promise<Descriptor> {
    const digest = sha256Digest(bytes);
    const what = `push manifest ${tag ?? digest} to ${this.displayName}`;
    if (tag !== undefined && !isValidTag(tag)) throw new PkgError(ExitCode.Usage, `${what}: invalid tag`);
    if (bytes.length > MAX_MANIFEST_SIZE) {
      throw new PkgError(ExitCode.Data, `${what}: larger than ${MAX_MANIFEST_SIZE} bytes`);
    }
    checkAborted(options.signal, what);
    const content = this.store.repository(this.repository, true);
    content.manifests.set(digest, { mediaType, bytes: Buffer.from(bytes) });
    if (tag !== undefined) content.tags.set(tag, digest);
    return { mediaType, digest, size: bytes.length };
  }

  async listTags(options: ListTagsOptions = {}): Promise<string[]> {
    checkAborted(options.signal, `list tags of ${this.displayName}`);
    const content = this.#content;
    if (content === undefined && options.ifMissing === "error") {
      throw new PkgError(ExitCode.Data, `${this.displayName}: no such repository`);
    }
    return [...(content?.tags.keys() ?? [])];
  }

  /** The stored manifests whose `subject` is `digest` (what a registry's referrers API answers). */
  async referrers(
    digest: string,
    artifactType?: string,
    options: OperationOptions = {},
  ): Promise<Descriptor[]> {
    const what = `list referrers of ${digest} in ${this.displayName}`;
    requireDigest(digest, what);
    checkAborted(options.signal, what);
    const found: Descriptor[] = [];
    for (const [stored, { mediaType, bytes }] of this.#content?.manifests ?? []) {
      if (manifestSubject(bytes)?.digest !== digest) continue;
      const type = mediaType || declaredMediaType(bytes) || MediaType.ImageManifest;
      found.push(referrerDescriptor(bytes, { mediaType: type, digest: stored, size: bytes.length }));
    }
    return filterByArtifactType(found, artifactType);
  }

  /** Deletes a manifest; refused (exit 65) while a tag points at it, as in a layout. */
  async deleteManifest(digest: string, options: OperationOptions = {}): Promise<void> {
    const what = `delete manifest ${digest} from ${this.displayName}`;
    requireDigest(digest, what);
    checkAborted(options.signal, what);
    const content = this.#content;
    if (content === undefined) return;
    const tags = [...content.tags].filter(([, target]) => target === digest).map(([tag]) => tag);
    if (tags.length > 0)
      throw new PkgError(ExitCode.Data, `${what}: tag ${tags.join(", ")} points at it; untag first`);
    content.manifests.delete(digest);
  }

  async untag(tag: string, options: OperationOptions = {}): Promise<void> {
    const what = `untag ${tag} in ${this.displayName}`;
    if (!isValidTag(tag)) throw new PkgError(ExitCode.Usage, `${what}: invalid tag`);
    checkAborted(options.signal, what);
    this.#content?.tags.delete(tag);
  }
}

/**
 * An in-memory repository: `openMemory("ns/tool")` has a store of its own; pass `{ store }` to
 * open several repositories of one memory "registry" (cross-repository mounts between them).
 */
export function openMemory(repository: string, options: { store?: MemoryStore } = {}): MemoryTarget {
  return new MemoryTarget(repository, options.store);
}
