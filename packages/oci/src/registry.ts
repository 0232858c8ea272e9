import { ExitCode, PkgError } from "@pkg/common";
import { discard, HttpBodyTooLargeError, nextLink } from "@pkg/net";
import { abortError, checkAborted, destroyOnAbort, type OperationOptions } from "./abort.js";
import { digestLike, parseDigest, requireDigest, sha256Digest, VerifyingStream } from "./digest.js";
import { MAX_CHUNK_SIZE, MAX_MANIFEST_SIZE } from "./limits.js";
import {
  isDigestReference,
  isValidRepository,
  isValidTag,
  parseReference,
  type Reference,
} from "./reference.js";
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
import { describeRegistryError } from "./registry-errors.js";
import { drain, type RegistryResponse, readBody } from "./response.js";
import type { ListTagsOptions, Target } from "./target.js";
import { errorText, RegistryClient, type RegistryClientOptions } from "./transport.js";
import {
  type BlobPushOutcome,
  type BlobSource,
  type Descriptor,
  MediaType,
  type StoredManifest,
} from "./types.js";
import { uploadBlob } from "./upload.js";
import { resolveUploadMode, type UploadMode } from "./upload-mode.js";

const manifestAccept = [
  MediaType.ImageManifest,
  MediaType.ImageIndex,
  MediaType.DockerManifest,
  MediaType.DockerManifestList,
].join(", ");

export interface RegistryTargetOptions extends RegistryClientOptions {
  /** A client to share (connections, credential, tokens) between repositories of one host. */
  client?: RegistryClient;
  /** Largest monolithic upload and PATCH chunk; at most (and by default) 3 MiB. */
  chunkSize?: number;
  /** Blobs over one chunk: `stream` (default) one PATCH, `chunked` ≤3 MiB PATCHes (unset: `PKG_REGISTRY_UPLOAD` in env). */
  uploadMode?: UploadMode;
  /** The `n` of each tag-list page (default 1000). */
  tagPageSize?: number;
}

export type RegistryLocation = string | Reference | { host: string; repository: string };

function locate(location: RegistryLocation): { host: string; repository: string } {
  if (typeof location === "string") {
    const parsed = parseReference(location);
    return { host: parsed.registry, repository: parsed.repository };
  }
  const host = "registry" in location ? location.registry : location.host;
  if (!isValidRepository(location.repository)) {
    throw new PkgError(ExitCode.Usage, `invalid repository "${location.repository}"`);
  }
  return { host, repository: location.repository };
}

/** A header that should occur once; a repeated one counts by its first value. */
function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The mime type of a Content-Type header, without parameters. */
function mimeType(header: string | undefined): string | undefined {
  const value = header?.split(";")[0]?.trim();
  return value ? value : undefined;
}

/** A repository on an OCI distribution registry. */
export class RegistryTarget implements Target {
  readonly displayName: string;
  readonly repository: string;
  readonly client: RegistryClient;
  readonly #chunkSize: number;
  readonly #uploadMode: UploadMode;
  readonly #tagPageSize: number;

  constructor(location: RegistryLocation, options: RegistryTargetOptions = {}) {
    const { host, repository } = locate(location);
    this.repository = repository;
    this.displayName = `${host}/${repository}`;
    this.client = options.client ?? new RegistryClient(host, options);
    this.#chunkSize = Math.max(1, Math.min(options.chunkSize ?? MAX_CHUNK_SIZE, MAX_CHUNK_SIZE));
    this.#uploadMode = resolveUploadMode(options.uploadMode, options.env ?? process.env);
    this.#tagPageSize = options.tagPageSize ?? 1000;
  }

  get #pull(): string[] {
    return [`repository:${this.repository}:pull`];
  }

  get #push(): string[] {
    return [`repository:${this.repository}:pull,push`];
  }

  async #url(suffix: string, signal: AbortSignal | undefined, operation: string): Promise<URL> {
    return new URL(`/v2/${this.repository}/${suffix}`, await this.client.base(signal, operation));
  }

  async #failure(response: RegistryResponse, operation: string): Promise<PkgError> {
    const text = await errorText(response);
    return new PkgError(
      ExitCode.Data,
      `${operation}: registry answered ${response.status}${text ? ` (${text})` : ""}`,
    );
  }

  async #headBlob(
    digest: string,
    scopes: string[],
    operation: string,
    signal: AbortSignal | undefined,
  ): Promise<number | undefined> {
    const response = await this.client.request({
      signal,
      method: "HEAD",
      url: await this.#url(`blobs/${digest}`, signal, operation),
      scopes,
      operation,
      followRedirects: true,
    });
    await drain(response);
    if (response.status === 404) return undefined;
    if (response.status !== 200) throw await this.#failure(response, operation);
    const length = Number(response.headers["content-length"]);
    return Number.isFinite(length) ? length : undefined;
  }

  async blobSize(digest: string, options: OperationOptions = {}): Promise<number | undefined> {
    requireDigest(digest, `blob of ${this.displayName}`);
    return this.#headBlob(digest, this.#pull, `HEAD blob ${digest} in ${this.displayName}`, options.signal);
  }

  async pushBlob(
    source: BlobSource,
    options: { mountFrom?: string } & OperationOptions = {},
  ): Promise<BlobPushOutcome> {
    const signal = options.signal;
    const operation = `push blob ${source.digest} to ${this.displayName}`;
    if (parseDigest(source.digest)?.algorithm !== "sha256") {
      throw new PkgError(ExitCode.Data, `${operation}: only sha256 digests are written`);
    }
    const scopes = this.#push;
    const existing = await this.#headBlob(source.digest, scopes, operation, signal);
    if (existing !== undefined) {
      if (existing !== source.size) {
        throw new PkgError(
          ExitCode.Data,
          `${operation}: the registry has it with ${existing} bytes, not ${source.size}`,
        );
      }
      return "existed";
    }
    let session: URL | undefined;
    const from = options.mountFrom;
    if (from !== undefined && from !== this.repository) {
      const mounted = await this.#mount(source.digest, from, operation, signal);
      if (mounted === true) return "mounted";
      session = mounted;
    }
    await uploadBlob(
      {
        client: this.client,
        repository: this.repository,
        scopes,
        operation,
        chunkSize: this.#chunkSize,
        mode: this.#uploadMode,
        blobSize: () => this.#headBlob(source.digest, scopes, operation, signal),
        signal,
      },
      source,
      session,
    );
    return "uploaded";
  }

  /** true when mounted; else the upload session the registry opened instead, if any. */
  async #mount(
    digest: string,
    from: string,
    operation: string,
    signal: AbortSignal | undefined,
  ): Promise<true | URL | undefined> {
    if (!isValidRepository(from))
      throw new PkgError(ExitCode.Usage, `${operation}: invalid mount source "${from}"`);
    const url = await this.#url("blobs/uploads/", signal, operation);
    url.searchParams.set("mount", digest);
    url.searchParams.set("from", from);
    let response: RegistryResponse;
    try {
      response = await this.client.request({
        signal,
        method: "POST",
        url,
        scopes: [...this.#push, `repository:${from}:pull`],
        operation: `${operation} (mount from ${from})`,
      });
    } catch (error) {
      // no read access to the source repository: an upload still works
      if (error instanceof PkgError && error.exitCode === ExitCode.AuthRejected && !signal?.aborted)
        return undefined;
      throw error;
    }
    await drain(response);
    if (response.status === 201) return true;
    if (response.status === 202 && response.headers.location) return new URL(response.headers.location, url);
    return undefined;
  }

  async fetchBlob(
    digest: string,
    expectedSize?: number,
    options: OperationOptions = {},
  ): Promise<NodeJS.ReadableStream> {
    const operation = `fetch blob ${digest} from ${this.displayName}`;
    const signal = options.signal;
    requireDigest(digest, operation);
    const response = await this.client.request({
      signal,
      method: "GET",
      url: await this.#url(`blobs/${digest}`, signal, operation),
      scopes: this.#pull,
      operation,
      followRedirects: true,
    });
    if (response.status === 404) {
      await drain(response);
      throw new PkgError(ExitCode.Data, `${operation}: the registry does not have it`);
    }
    if (response.status !== 200) throw await this.#failure(response, operation);
    const length = Number(response.headers["content-length"]);
    const declared = Number.isFinite(length) ? length : undefined;
    if (expectedSize !== undefined && declared !== undefined && declared !== expectedSize) {
      discard(response.body);
      throw new PkgError(
        ExitCode.Data,
        `${operation}: the registry serves ${declared} bytes, expected ${expectedSize}`,
      );
    }
    const verifier = new VerifyingStream(digest, expectedSize ?? declared, operation);
    response.body.on("error", (error) =>
      verifier.destroy(
        signal?.aborted
          ? abortError(signal, operation)
          : new PkgError(ExitCode.Transient, `${operation}: the download broke off (${error.message})`),
      ),
    );
    response.body.pipe(verifier);
    destroyOnAbort(verifier, signal, operation);
    return verifier;
  }

  async fetchManifest(
    reference: string,
    options: OperationOptions = {},
  ): Promise<StoredManifest | undefined> {
    const operation = `fetch manifest ${reference} from ${this.displayName}`;
    const signal = options.signal;
    const byDigest = isDigestReference(reference, operation);
    const response = await this.client.request({
      method: "GET",
      signal,
      url: await this.#url(`manifests/${reference}`, signal, operation),
      headers: { accept: manifestAccept },
      scopes: this.#pull,
      operation,
    });
    if (response.status === 404) {
      await drain(response);
      return undefined;
    }
    if (response.status !== 200) throw await this.#failure(response, operation);
    let bytes: Buffer;
    try {
      bytes = await readBody(response, MAX_MANIFEST_SIZE);
    } catch (error) {
      checkAborted(signal, operation);
      if (error instanceof HttpBodyTooLargeError) {
        throw new PkgError(ExitCode.Data, `${operation}: larger than ${MAX_MANIFEST_SIZE} bytes`);
      }
      throw new PkgError(
        ExitCode.Transient,
        `${operation}: the download broke off (${(error as Error).message})`,
      );
    }
    const header = single(response.headers["docker-content-digest"]);
    const expected = byDigest ? reference : header !== undefined && parseDigest(header) ? header : undefined;
    const digest = expected ?? sha256Digest(bytes);
    if (expected !== undefined && digestLike(expected, bytes) !== expected) {
      throw new PkgError(ExitCode.Data, `${operation}: the content does not hash to ${expected}`);
    }
    const mediaType =
      mimeType(response.headers["content-type"]) ?? declaredMediaType(bytes) ?? MediaType.ImageManifest;
    return { descriptor: { mediaType, digest, size: bytes.length }, bytes };
  }

  async pushManifest(
    bytes: Buffer,
    mediaType: string,
    tag?: string,
    options: OperationOptions = {},
  ): Promise<Descriptor> {
    const signal = options.signal;
    const digest = sha256Digest(bytes);
    const operation = `push manifest ${tag ?? digest} to ${this.displayName}`;
    if (tag !== undefined && !isValidTag(tag))
      throw new PkgError(ExitCode.Usage, `${operation}: invalid tag`);
    if (bytes.length > MAX_MANIFEST_SIZE) {
      throw new PkgError(ExitCode.Data, `${operation}: larger than ${MAX_MANIFEST_SIZE} bytes`);
    }
    const response = await this.client.request({
      signal,
      method: "PUT",
      url: await this.#url(`manifests/${tag ?? digest}`, signal, operation),
      headers: { "content-type": mediaType },
      body: bytes,
      scopes: this.#push,
      operation,
    });
    if (response.status !== 201 && response.status !== 200) throw await this.#failure(response, operation);
    await drain(response);
    const stored = single(response.headers["docker-content-digest"]);
    if (stored !== undefined && stored !== digest && parseDigest(stored)?.algorithm === "sha256") {
      throw new PkgError(ExitCode.Data, `${operation}: the registry stored it as ${stored}, not ${digest}`);
    }
    const descriptor: Descriptor = { mediaType, digest, size: bytes.length };
    const subject = manifestSubject(bytes);
    if (subject && response.headers["oci-subject"] === undefined) {
      await this.#addToReferrersTag(subject.digest, referrerDescriptor(bytes, descriptor), signal);
    }
    return descriptor;
  }

  /** The referrers tag scheme: the index at `sha256-<hex>` lists the manifests that refer to the subject. */
  async #addToReferrersTag(
    subjectDigest: string,
    entry: Descriptor,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const tag = referrersTag(subjectDigest);
    const current = await this.fetchManifest(tag, { signal });
    const existing = current ? indexManifests(current.bytes) : undefined;
    await this.pushManifest(encodeIndex(withReferrer(existing, entry)), MediaType.ImageIndex, tag, {
      signal,
    });
  }

  async listTags(options: ListTagsOptions = {}): Promise<string[]> {
    const operation = `list tags of ${this.displayName}`;
    const signal = options.signal;
    const tags: string[] = [];
    let url: URL | undefined = await this.#url("tags/list", signal, operation);
    url.searchParams.set("n", String(this.#tagPageSize));
    let firstPage = true;
    while (url) {
      const response = await this.client.request({
        signal,
        method: "GET",
        url,
        scopes: this.#pull,
        operation,
      });
      if (response.status === 404) {
        // A first page answering 404 means the repository does not exist (NAME_UNKNOWN; some
        // registries say NOT_FOUND): no tags. A later page answering 404 leaves the listing
        // incomplete, and taking it as complete would report published versions as new.
        if (!firstPage) {
          const body = await readBody(response, MAX_MANIFEST_SIZE).catch(() => Buffer.alloc(0));
          throw new PkgError(
            ExitCode.Unavailable,
            `${operation}: a later page of the tag list answered 404 (${describeRegistryError(body) || "no error body"}); the listing is incomplete`,
          );
        }
        await drain(response);
        if (options.ifMissing === "error") {
          throw new PkgError(ExitCode.Data, `${this.displayName}: no such repository`);
        }
        return tags;
      }
      if (response.status !== 200) throw await this.#failure(response, operation);
      let page: { tags?: unknown };
      try {
        page = JSON.parse((await readBody(response, MAX_MANIFEST_SIZE)).toString("utf8"));
      } catch (error) {
        checkAborted(signal, operation);
        throw new PkgError(ExitCode.Data, `${operation}: unreadable tag list (${(error as Error).message})`);
      }
      if (Array.isArray(page.tags)) tags.push(...page.tags.filter((t): t is string => typeof t === "string"));
      const next = nextLink(response.headers.link, url);
      url = next === undefined ? undefined : new URL(next);
      firstPage = false;
    }
    return tags;
  }

  async referrers(
    digest: string,
    artifactType?: string,
    options: OperationOptions = {},
  ): Promise<Descriptor[]> {
    const operation = `list referrers of ${digest} in ${this.displayName}`;
    const signal = options.signal;
    requireDigest(digest, operation);
    const url = await this.#url(`referrers/${digest}`, signal, operation);
    if (artifactType !== undefined) url.searchParams.set("artifactType", artifactType);
    const response = await this.client.request({
      signal,
      method: "GET",
      url,
      headers: { accept: MediaType.ImageIndex },
      scopes: this.#pull,
      operation,
    });
    if (response.status === 200 && mimeType(response.headers["content-type"]) === MediaType.ImageIndex) {
      const listed = indexManifests(await readBody(response, MAX_MANIFEST_SIZE));
      if (listed) return filterByArtifactType(listed, artifactType);
    } else {
      await drain(response);
    }
    const fallback = await this.fetchManifest(referrersTag(digest), { signal });
    const listed = fallback ? indexManifests(fallback.bytes) : undefined;
    return filterByArtifactType(listed ?? [], artifactType);
  }

  /**
   * DELETE of a manifest reference; a 404 (already gone) counts as done. `refusal` names the
   * statuses that mean the registry does not do this kind of delete (exit 82).
   */
  async #delete(
    reference: string,
    operation: string,
    signal: AbortSignal | undefined,
    refusal: { statuses: number[]; message: string },
  ): Promise<void> {
    const response = await this.client.request({
      signal,
      method: "DELETE",
      url: await this.#url(`manifests/${reference}`, signal, operation),
      scopes: [`repository:${this.repository}:delete`],
      operation,
    });
    if (response.status === 202 || response.status === 200 || response.status === 404) {
      await drain(response);
      return;
    }
    if (refusal.statuses.includes(response.status)) {
      const text = await errorText(response);
      throw new PkgError(
        ExitCode.Unsupported,
        `${operation}: ${refusal.message} (answered ${response.status}${text ? `: ${text}` : ""})`,
      );
    }
    throw await this.#failure(response, operation);
  }

  /** Deletes a manifest by digest (the registry must allow deletes: else exit 82). */
  async deleteManifest(digest: string, options: OperationOptions = {}): Promise<void> {
    const operation = `delete manifest ${digest} from ${this.displayName}`;
    requireDigest(digest, operation);
    await this.#delete(digest, operation, options.signal, {
      statuses: [405],
      message: "the registry does not allow deletes",
    });
  }

  /**
   * Removes a tag by DELETE of the tag reference (OCI distribution 1.1). A registry that does not
   * delete tags answers 400 or 405 (CNCF distribution 2.x: 400 DIGEST_INVALID): exit 82.
   */
  async untag(tag: string, options: OperationOptions = {}): Promise<void> {
    const operation = `untag ${tag} in ${this.displayName}`;
    if (!isValidTag(tag)) throw new PkgError(ExitCode.Usage, `${operation}: invalid tag`);
    await this.#delete(tag, operation, options.signal, {
      statuses: [400, 405],
      message: "the registry does not delete tags, only manifests by digest",
    });
  }
}

/** A registry repository as a Target: `openRegistry("registry.example.com/ns/tool")` (a tag or digest is ignored). */
export function openRegistry(
  location: RegistryLocation,
  options: RegistryTargetOptions = {},
): RegistryTarget {
  return new RegistryTarget(location, options);
}
