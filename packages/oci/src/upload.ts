import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { ExitCode, PkgError } from "@pkg/common";
import { ChunkReader } from "./chunk-reader.js";
import { drain } from "./http.js";
import { backoffDelay } from "./retry.js";
import type { RegistryClient } from "./transport.js";
import { errorText } from "./transport.js";
import type { BlobSource } from "./types.js";

export interface UploadContext {
  client: RegistryClient;
  repository: string;
  scopes: string[];
  /** For messages: `push blob sha256:... to host/repo`. */
  operation: string;
  chunkSize: number;
  /** The stored size of the blob, to recognise a commit whose answer was lost. */
  blobSize: () => Promise<number | undefined>;
}

/** A failure after which a fresh upload session (and a fresh `open()`) may succeed. */
class RestartableError extends PkgError {}

const octetStream = { "content-type": "application/octet-stream" };

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function locationOf(response: IncomingMessage, base: URL, operation: string): URL {
  const location = response.headers.location;
  if (!location)
    throw new PkgError(ExitCode.Unavailable, `${operation}: the registry sent no upload Location`);
  return new URL(location, base);
}

/** The exclusive end offset of a `Range: 0-<last>` upload status (`0--1` or absent: nothing yet). */
export function uploadedBytes(range: string | undefined): number | undefined {
  if (range === undefined) return 0;
  const match = /^(?:bytes=)?0-(-?[0-9]+)$/.exec(range.trim());
  return match ? Math.max(Number(match[1]) + 1, 0) : undefined;
}

async function unexpected(response: IncomingMessage, what: string, operation: string): Promise<PkgError> {
  const status = response.statusCode ?? 0;
  const text = await errorText(response);
  const message = `${operation}: ${what} answered ${status}${text ? ` (${text})` : ""}`;
  return status === 404
    ? new RestartableError(ExitCode.Transient, message)
    : new PkgError(ExitCode.Data, message);
}

/** Opens an upload session: `POST /v2/<name>/blobs/uploads/` → 202 with a Location. */
async function openSession(ctx: UploadContext): Promise<URL> {
  const url = new URL(`/v2/${ctx.repository}/blobs/uploads/`, await ctx.client.base());
  const response = await ctx.client.request({
    method: "POST",
    url,
    scopes: ctx.scopes,
    operation: ctx.operation,
  });
  if (response.statusCode !== 202) {
    const failure = await unexpected(response, "opening an upload", ctx.operation);
    throw new PkgError(
      failure.exitCode === ExitCode.Transient ? ExitCode.Data : failure.exitCode,
      failure.message,
    );
  }
  await drain(response);
  return locationOf(response, url, ctx.operation);
}

/** Reads the whole (small) source, refusing more bytes than declared. */
async function readAll(source: BlobSource): Promise<Buffer> {
  const opened = source.open();
  const reader = new ChunkReader(opened);
  try {
    return await reader.read(source.size + 1);
  } finally {
    reader.close();
  }
}

function checkContent(source: BlobSource, sent: number, digest: string, operation: string): void {
  if (sent !== source.size) {
    throw new PkgError(
      ExitCode.Data,
      `${operation}: the content is ${sent > source.size ? "longer" : "shorter"} than the declared ${source.size} bytes; nothing committed`,
    );
  }
  if (digest !== source.digest) {
    throw new PkgError(
      ExitCode.Data,
      `${operation}: the content hashes to ${digest}, not the declared digest; nothing committed`,
    );
  }
}

/** Commits an upload with `PUT <location>?digest=`; a lost answer is recognised by the blob being there. */
async function commit(
  ctx: UploadContext,
  location: URL,
  digest: string,
  size: number,
  body?: Buffer,
): Promise<void> {
  const url = new URL(location);
  url.searchParams.set("digest", digest);
  const response = await ctx.client.request({
    method: "PUT",
    url,
    headers: octetStream,
    ...(body === undefined ? {} : { body }),
    scopes: ctx.scopes,
    operation: ctx.operation,
  });
  if (response.statusCode === 201) {
    await drain(response);
    return;
  }
  if (response.statusCode === 404 && (await ctx.blobSize()) === size) {
    await drain(response);
    return;
  }
  throw await unexpected(response, "committing the upload", ctx.operation);
}

async function uploadStatus(
  ctx: UploadContext,
  location: URL,
): Promise<{ next: number; location: URL } | undefined> {
  const response = await ctx.client.request({
    method: "GET",
    url: location,
    scopes: ctx.scopes,
    operation: ctx.operation,
  });
  await drain(response);
  if (response.statusCode !== 204 && response.statusCode !== 200) return undefined;
  const next = uploadedBytes(response.headers.range);
  if (next === undefined) return undefined;
  return {
    next,
    location: response.headers.location ? locationOf(response, location, ctx.operation) : location,
  };
}

/** Sends one chunk with PATCH; after a failure, asks the registry how much arrived and resends the rest. */
async function sendChunk(ctx: UploadContext, location: URL, chunk: Buffer, start: number): Promise<URL> {
  let url = location;
  let sent = 0;
  for (let failures = 0; ; ) {
    const part = chunk.subarray(sent);
    const end = start + chunk.length - 1;
    try {
      const response = await ctx.client.request({
        method: "PATCH",
        url,
        headers: { ...octetStream, "content-range": `${start + sent}-${end}` },
        body: part,
        scopes: ctx.scopes,
        operation: ctx.operation,
        retry: false,
      });
      if (response.statusCode === 202) {
        await drain(response);
        return locationOf(response, url, ctx.operation);
      }
      if (response.statusCode !== 416) throw await unexpected(response, "a chunk upload", ctx.operation);
      await drain(response);
    } catch (error) {
      if (
        !(error instanceof PkgError) ||
        error.exitCode !== ExitCode.Transient ||
        error instanceof RestartableError
      )
        throw error;
      const policy = ctx.client.retryPolicy;
      if (++failures > policy.retries) throw new RestartableError(ExitCode.Transient, error.message);
      await sleep(backoffDelay(policy, failures - 1, Math.random()));
    }
    const status = await uploadStatus(ctx, url);
    if (!status || status.next < start || status.next > start + chunk.length) {
      throw new RestartableError(ExitCode.Transient, `${ctx.operation}: the upload session was lost`);
    }
    url = status.location;
    sent = status.next - start;
    if (sent === chunk.length) return url;
  }
}

async function uploadChunked(ctx: UploadContext, source: BlobSource, location: URL): Promise<void> {
  const reader = new ChunkReader(source.open());
  const hash = createHash("sha256");
  // Chunks are read and hashed in order, each while the previous one is on the wire. Past the
  // declared end, one byte more tells whether the source is longer than declared.
  const readNext = (from: number): Promise<Buffer> => {
    const within = from < source.size;
    const read = reader.read(within ? Math.min(ctx.chunkSize, source.size - from) : 1).then((chunk) => {
      if (within) hash.update(chunk);
      return chunk;
    });
    read.catch(() => {}); // awaited below; a failure while a chunk is in flight must not go unhandled
    return read;
  };
  let url = location;
  let offset = 0;
  let extra = 0;
  try {
    let pending = readNext(0);
    for (;;) {
      const chunk = await pending;
      if (offset >= source.size) {
        extra = chunk.length;
        break;
      }
      if (chunk.length === 0) break;
      pending = readNext(offset + chunk.length);
      url = await sendChunk(ctx, url, chunk, offset);
      offset += chunk.length;
    }
    checkContent(source, offset + extra, `sha256:${hash.digest("hex")}`, ctx.operation);
  } finally {
    reader.close();
  }
  await commit(ctx, url, source.digest, source.size);
}

async function uploadMonolithic(ctx: UploadContext, source: BlobSource, location: URL): Promise<void> {
  const bytes = await readAll(source);
  checkContent(
    source,
    bytes.length,
    `sha256:${createHash("sha256").update(bytes).digest("hex")}`,
    ctx.operation,
  );
  await commit(ctx, location, source.digest, source.size, bytes);
}

/**
 * Uploads a blob: in one PUT up to the chunk size, else in PATCH chunks then a PUT. The digest
 * of what was sent is checked before the commit. A lost session or repeatedly failing chunk
 * restarts the upload from scratch, a bounded number of times.
 */
export async function uploadBlob(ctx: UploadContext, source: BlobSource, session?: URL): Promise<void> {
  let location = session;
  for (let restarts = 0; ; restarts++) {
    try {
      location ??= await openSession(ctx);
      if (source.size <= ctx.chunkSize) await uploadMonolithic(ctx, source, location);
      else await uploadChunked(ctx, source, location);
      return;
    } catch (error) {
      if (!(error instanceof RestartableError) || restarts >= ctx.client.retryPolicy.retries) {
        if (error instanceof RestartableError) throw new PkgError(ExitCode.Transient, error.message);
        throw error;
      }
      location = undefined;
    }
  }
}
