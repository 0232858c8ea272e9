import { ExitCode, PkgError } from "@pkg/common";
import { drain, type RegistryResponse } from "./response.js";
import type { RegistryClient } from "./transport.js";
import { errorText } from "./transport.js";
import type { BlobSource } from "./types.js";
import type { UploadMode } from "./upload-mode.js";

export interface UploadContext {
  client: RegistryClient;
  repository: string;
  scopes: string[];
  /** For messages: `push blob sha256:... to host/repo`. */
  operation: string;
  chunkSize: number;
  mode: UploadMode;
  /** The stored size of the blob, to recognise a commit whose answer was lost. */
  blobSize: () => Promise<number | undefined>;
  /** Cuts every request of the upload (see `RegistryRequest.signal`). */
  signal?: AbortSignal | undefined;
}

/** A failure after which a fresh upload session (and a fresh `open()`) may succeed. */
export class RestartableError extends PkgError {}

/** A transient failure of one request that left the session usable (not a RestartableError). */
export function isRequestTransient(error: unknown): error is PkgError {
  return (
    error instanceof PkgError && error.exitCode === ExitCode.Transient && !(error instanceof RestartableError)
  );
}

export const octetStream = { "content-type": "application/octet-stream" };

export function locationOf(response: RegistryResponse, base: URL, operation: string): URL {
  const location = response.headers.location;
  if (!location)
    throw new PkgError(ExitCode.Unavailable, `${operation}: the registry sent no upload Location`);
  return new URL(location, base);
}

/**
 * The exclusive end offset of a `Range: 0-<last>` upload status (`0--1` or absent: nothing yet).
 * `0-0` is unknown: CNCF distribution answers it both for an empty session and for one byte.
 */
export function uploadedBytes(range: string | undefined): number | undefined {
  if (range === undefined) return 0;
  const match = /^(?:bytes=)?0-(-?[0-9]+)$/.exec(range.trim());
  if (!match || match[1] === "0") return undefined;
  return Math.max(Number(match[1]) + 1, 0);
}

/** The error for an answer the upload cannot use; a lost session (404) is worth a restart. */
export async function unexpected(
  response: RegistryResponse,
  what: string,
  operation: string,
): Promise<PkgError> {
  const status = response.status;
  const text = await errorText(response);
  const message = `${operation}: ${what} answered ${status}${text ? ` (${text})` : ""}`;
  return status === 404
    ? new RestartableError(ExitCode.Transient, message)
    : new PkgError(ExitCode.Data, message);
}

/** Opens an upload session: `POST /v2/<name>/blobs/uploads/` → 202 with a Location. */
export async function openSession(ctx: UploadContext): Promise<URL> {
  const url = new URL(
    `/v2/${ctx.repository}/blobs/uploads/`,
    await ctx.client.base(ctx.signal, ctx.operation),
  );
  const response = await ctx.client.request({
    signal: ctx.signal,
    method: "POST",
    url,
    scopes: ctx.scopes,
    operation: ctx.operation,
  });
  if (response.status !== 202) {
    const failure = await unexpected(response, "opening an upload", ctx.operation);
    throw new PkgError(
      failure.exitCode === ExitCode.Transient ? ExitCode.Data : failure.exitCode,
      failure.message,
    );
  }
  await drain(response);
  return locationOf(response, url, ctx.operation);
}

/** Refuses content of another size or digest than declared, before anything is committed. */
export function checkContent(source: BlobSource, sent: number, digest: string, operation: string): void {
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
export async function commit(
  ctx: UploadContext,
  location: URL,
  digest: string,
  size: number,
  body?: Buffer,
): Promise<void> {
  const url = new URL(location);
  url.searchParams.set("digest", digest);
  const response = await ctx.client.request({
    signal: ctx.signal,
    method: "PUT",
    url,
    headers: octetStream,
    ...(body === undefined ? {} : { body }),
    scopes: ctx.scopes,
    operation: ctx.operation,
  });
  if (response.status === 201) {
    await drain(response);
    return;
  }
  if (response.status === 404 && (await ctx.blobSize()) === size) {
    await drain(response);
    return;
  }
  throw await unexpected(response, "committing the upload", ctx.operation);
}

/** How many bytes the session holds (`GET <location>`), and where to continue; undefined when unknown. */
export async function uploadStatus(
  ctx: UploadContext,
  location: URL,
): Promise<{ next: number; location: URL } | undefined> {
  const response = await ctx.client.request({
    signal: ctx.signal,
    method: "GET",
    url: location,
    scopes: ctx.scopes,
    operation: ctx.operation,
  });
  await drain(response);
  if (response.status !== 204 && response.status !== 200) return undefined;
  const next = uploadedBytes(response.headers.range);
  if (next === undefined) return undefined;
  return {
    next,
    location: response.headers.location ? locationOf(response, location, ctx.operation) : location,
  };
}
