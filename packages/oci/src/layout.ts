import { mkdir, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { ExitCode, PkgError, writeFileAtomically } from "@pkg/common";
import { checkAborted, destroyOnAbort, type OperationOptions } from "./abort.js";
import { digestLike, parseDigest, requireDigest, sha256Digest, type VerifyingStream } from "./digest.js";
import { withFileLock } from "./file-lock.js";
import {
  blobPath,
  createIfMissing,
  fileSize,
  linkOrCopy,
  openVerifiedBlob,
  readOptionalFile,
  writeVerifiedBlob,
} from "./layout-files.js";
import {
  emptyLayoutIndex,
  findTag,
  type LayoutIndex,
  layoutTags,
  parseLayoutIndex,
  REF_NAME,
  withoutTag,
  withTag,
} from "./layout-index.js";
import { MAX_MANIFEST_SIZE } from "./limits.js";
import { isDigestReference, isValidRepository, isValidTag } from "./reference.js";
import {
  declaredMediaType,
  encodeIndex,
  filterByArtifactType,
  indexManifests,
  manifestSubject,
  referrerDescriptor,
  referrersTag,
  withReferrer,
} from "./referrers.js";
import type { ListTagsOptions, Target } from "./target.js";
import {
  type BlobPushOutcome,
  type BlobSource,
  type Descriptor,
  MediaType,
  type StoredManifest,
} from "./types.js";

const OCI_LAYOUT = `${JSON.stringify({ imageLayoutVersion: "1.0.0" })}\n`;

/**
 * One repository as an OCI image layout directory, `<root>/<repository>`: `oci-layout`,
 * `index.json` (tags as `org.opencontainers.image.ref.name`), `blobs/sha256/<hex>`. Writes are
 * verified and renamed into place; index.json changes under a lock file, so concurrent writers
 * never lose a tag. A signal is checked between file steps; an aborted write leaves no partial blob
 * (temp files are removed) and no tag pointing at a missing blob (index.json is replaced last).
 */
export class LayoutTarget implements Target {
  readonly displayName: string;
  readonly repository: string;
  readonly root: string;
  /** The layout directory: `<root>/<repository>`. */
  readonly dir: string;
  #prepared: Promise<void> | undefined;

  constructor(root: string, repository: string) {
    if (!isValidRepository(repository))
      throw new PkgError(ExitCode.Usage, `invalid repository "${repository}"`);
    this.root = resolve(root);
    this.repository = repository;
    this.dir = join(this.root, repository);
    this.displayName = `layout:${this.dir}`;
  }

  get #indexPath(): string {
    return join(this.dir, "index.json");
  }

  /** Creates the layout skeleton on first write. */
  #prepare(): Promise<void> {
    this.#prepared ??= (async () => {
      await mkdir(join(this.dir, "blobs", "sha256"), { recursive: true });
      await createIfMissing(join(this.dir, "oci-layout"), OCI_LAYOUT);
      await createIfMissing(this.#indexPath, `${JSON.stringify(emptyLayoutIndex())}\n`);
    })();
    return this.#prepared;
  }

  async #readIndex(): Promise<LayoutIndex> {
    const bytes = await readOptionalFile(this.#indexPath);
    return bytes === undefined ? emptyLayoutIndex() : parseLayoutIndex(bytes, this.#indexPath);
  }

  /** Read-modify-write of index.json under the lock; an abort before the change leaves it as it was. */
  async #updateIndex(
    change: (index: LayoutIndex) => Promise<LayoutIndex>,
    signal: AbortSignal | undefined,
    what: string,
  ): Promise<void> {
    await this.#prepare();
    await withFileLock(`${this.#indexPath}.lock`, async () => {
      checkAborted(signal, what);
      const next = await change(await this.#readIndex());
      await writeFileAtomically(this.#indexPath, `${JSON.stringify(next)}\n`, { mode: 0o644 });
    });
  }

  async blobSize(digest: string, options: OperationOptions = {}): Promise<number | undefined> {
    checkAborted(options.signal, `HEAD blob ${digest} in ${this.displayName}`);
    return fileSize(blobPath(this.dir, digest));
  }

  async pushBlob(
    source: BlobSource,
    options: { mountFrom?: string } & OperationOptions = {},
  ): Promise<BlobPushOutcome> {
    const what = `push blob ${source.digest} to ${this.displayName}`;
    const signal = options.signal;
    checkAborted(signal, what);
    if (parseDigest(source.digest)?.algorithm !== "sha256") {
      throw new PkgError(ExitCode.Data, `${what}: only sha256 digests are written`);
    }
    const path = blobPath(this.dir, source.digest);
    const existing = await fileSize(path);
    if (existing === source.size) return "existed";
    await this.#prepare();
    const from = options.mountFrom;
    if (from !== undefined && from !== this.repository) {
      if (!isValidRepository(from))
        throw new PkgError(ExitCode.Usage, `${what}: invalid mount source "${from}"`);
      const other = blobPath(join(this.root, from), source.digest);
      if ((await fileSize(other)) === source.size) {
        checkAborted(signal, what);
        await linkOrCopy(other, path);
        return "mounted";
      }
    }
    checkAborted(signal, what);
    await writeVerifiedBlob(path, source.open(), source.digest, source.size, what, signal);
    return "uploaded";
  }

  async fetchBlob(
    digest: string,
    expectedSize?: number,
    options: OperationOptions = {},
  ): Promise<NodeJS.ReadableStream> {
    const what = `fetch blob ${digest} from ${this.displayName}`;
    checkAborted(options.signal, what);
    const stream = await openVerifiedBlob(blobPath(this.dir, digest), digest, expectedSize, what);
    destroyOnAbort(stream as VerifyingStream, options.signal, what);
    return stream;
  }

  /** Reads and verifies a manifest blob; undefined when absent. */
  async #readManifest(descriptor: { digest: string; size?: number; mediaType?: string }, what: string) {
    const path = blobPath(this.dir, descriptor.digest);
    const size = await fileSize(path);
    if (size === undefined) return undefined;
    if (size > MAX_MANIFEST_SIZE)
      throw new PkgError(ExitCode.Data, `${what}: larger than ${MAX_MANIFEST_SIZE} bytes`);
    const bytes = (await readOptionalFile(path)) ?? Buffer.alloc(0);
    if (digestLike(descriptor.digest, bytes) !== descriptor.digest) {
      throw new PkgError(ExitCode.Data, `${what}: the stored content does not hash to ${descriptor.digest}`);
    }
    if (descriptor.size !== undefined && descriptor.size !== bytes.length) {
      throw new PkgError(
        ExitCode.Data,
        `${what}: stored with ${bytes.length} bytes, index.json says ${descriptor.size}`,
      );
    }
    const mediaType = descriptor.mediaType ?? declaredMediaType(bytes) ?? MediaType.ImageManifest;
    return { descriptor: { mediaType, digest: descriptor.digest, size: bytes.length }, bytes };
  }

  async fetchManifest(
    reference: string,
    options: OperationOptions = {},
  ): Promise<StoredManifest | undefined> {
    const what = `fetch manifest ${reference} from ${this.displayName}`;
    checkAborted(options.signal, what);
    if (isDigestReference(reference, what)) return this.#readManifest({ digest: reference }, what);
    const descriptor = findTag(await this.#readIndex(), reference);
    if (!descriptor) return undefined;
    requireDigest(descriptor.digest, `${this.#indexPath}: tag ${reference}`);
    const found = await this.#readManifest(descriptor, what);
    if (!found)
      throw new PkgError(ExitCode.Data, `${what}: index.json names ${descriptor.digest}, which is missing`);
    return found;
  }

  async #storeManifest(
    bytes: Buffer,
    mediaType: string,
    what: string,
    signal: AbortSignal | undefined,
  ): Promise<Descriptor> {
    const digest = sha256Digest(bytes);
    await this.#prepare();
    const path = blobPath(this.dir, digest);
    if ((await fileSize(path)) !== bytes.length)
      await writeVerifiedBlob(path, bytes, digest, bytes.length, what, signal);
    return { mediaType, digest, size: bytes.length };
  }

  async pushManifest(
    bytes: Buffer,
    mediaType: string,
    tag?: string,
    options: OperationOptions = {},
  ): Promise<Descriptor> {
    const what = `push manifest ${tag ?? "by digest"} to ${this.displayName}`;
    const signal = options.signal;
    checkAborted(signal, what);
    if (tag !== undefined && !isValidTag(tag)) throw new PkgError(ExitCode.Usage, `${what}: invalid tag`);
    if (bytes.length > MAX_MANIFEST_SIZE)
      throw new PkgError(ExitCode.Data, `${what}: larger than ${MAX_MANIFEST_SIZE} bytes`);
    const descriptor = await this.#storeManifest(bytes, mediaType, what, signal);
    const subject = manifestSubject(bytes);
    if (tag === undefined && !subject) return descriptor;
    await this.#updateIndex(
      async (index) => {
        let next = tag === undefined ? index : withTag(index, tag, descriptor);
        if (subject) {
          const fallbackTag = referrersTag(subject.digest);
          const current = findTag(next, fallbackTag);
          const existing = current ? await this.#readManifest(current, what) : undefined;
          const listing = withReferrer(
            existing && indexManifests(existing.bytes),
            referrerDescriptor(bytes, descriptor),
          );
          const stored = await this.#storeManifest(encodeIndex(listing), MediaType.ImageIndex, what, signal);
          next = withTag(next, fallbackTag, stored);
        }
        return next;
      },
      signal,
      what,
    );
    return descriptor;
  }

  /** The tags; with `ifMissing: "error"`, a layout without index.json is exit 65 ("no such repository"). */
  async listTags(options: ListTagsOptions = {}): Promise<string[]> {
    checkAborted(options.signal, `list tags of ${this.displayName}`);
    const bytes = await readOptionalFile(this.#indexPath);
    if (bytes === undefined) {
      if (options.ifMissing === "error")
        throw new PkgError(ExitCode.Data, `${this.displayName}: no such repository`);
      return [];
    }
    return layoutTags(parseLayoutIndex(bytes, this.#indexPath));
  }

  async referrers(
    digest: string,
    artifactType?: string,
    options: OperationOptions = {},
  ): Promise<Descriptor[]> {
    const found = await this.fetchManifest(referrersTag(digest), options);
    return filterByArtifactType((found && indexManifests(found.bytes)) ?? [], artifactType);
  }

  /** Removes a tag from index.json (atomically); its manifest stays as a blob. */
  async untag(tag: string, options: OperationOptions = {}): Promise<void> {
    const what = `untag ${tag} in ${this.displayName}`;
    if (!isValidTag(tag)) throw new PkgError(ExitCode.Usage, `${what}: invalid tag`);
    checkAborted(options.signal, what);
    if ((await readOptionalFile(this.#indexPath)) === undefined) return;
    await this.#updateIndex(async (index) => withoutTag(index, tag), options.signal, what);
  }

  /**
   * Deletes a manifest: its untagged index.json entries and its blob. Refused (exit 65) while a
   * tag points at it — untag first — so no tag is ever left pointing at a missing blob. A
   * referrers listing that names it is left as it is (as a registry leaves its fallback tag).
   */
  async deleteManifest(digest: string, options: OperationOptions = {}): Promise<void> {
    const what = `delete manifest ${digest} from ${this.displayName}`;
    requireDigest(digest, what);
    checkAborted(options.signal, what);
    if ((await readOptionalFile(this.#indexPath)) === undefined) return;
    await this.#updateIndex(
      async (index) => {
        const tags = index.manifests
          .filter((d) => d.digest === digest)
          .map((d) => d.annotations?.[REF_NAME])
          .filter((t): t is string => t !== undefined);
        if (tags.length > 0) {
          throw new PkgError(ExitCode.Data, `${what}: tag ${tags.join(", ")} points at it; untag first`);
        }
        // the blob goes while the lock is held, so no concurrent tag update points at it in between
        checkAborted(options.signal, what);
        await rm(blobPath(this.dir, digest), { force: true });
        return { ...index, manifests: index.manifests.filter((d) => d.digest !== digest) };
      },
      options.signal,
      what,
    );
  }
}

/** The layout for `repository` under `root` (`<root>/<repository>`); created on first write. */
export function openLayout(root: string, repository: string): LayoutTarget {
  return new LayoutTarget(root, repository);
}
