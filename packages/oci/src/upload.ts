import { createHash } from "node:crypto";
import { ExitCode, PkgError } from "@pkg/common";
import { abortError } from "./abort.js";
import { ChunkReader } from "./chunk-reader.js";
import type { BlobSource } from "./types.js";
import { uploadChunked } from "./upload-chunked.js";
import {
  checkContent,
  commit,
  openSession,
  RestartableError,
  type UploadContext,
  uploadStatus,
} from "./upload-session.js";
import { patchStreamed } from "./upload-stream.js";

/** Reads the whole (small) source, refusing more bytes than declared. */
async function readAll(source: BlobSource): Promise<Buffer> {
  const reader = new ChunkReader(source.open());
  try {
    return await reader.read(source.size + 1);
  } finally {
    reader.close();
  }
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
 * One streamed PATCH; when it is refused or cut, the client goes over to chunks for good, and
 * this upload goes on in chunks from what the session holds (from scratch if it cannot tell).
 */
async function uploadStreamed(ctx: UploadContext, source: BlobSource, location: URL): Promise<void> {
  const outcome = await patchStreamed(ctx, source, location);
  if ("location" in outcome) {
    await commit(ctx, outcome.location, source.digest, source.size);
    return;
  }
  ctx.client.chunkedUploads = true;
  const status = await uploadStatus(ctx, location);
  if (!status || status.next > source.size) {
    throw new RestartableError(
      ExitCode.Transient,
      `${outcome.refused}; the upload session cannot say what it holds`,
    );
  }
  await uploadChunked(ctx, source, status.location, status.next);
}

/**
 * Uploads a blob: in one PUT up to the chunk size; else in one streamed PATCH then a PUT, or in
 * PATCH chunks when the mode or an earlier refusal asks for them. The digest of what was sent
 * is checked before the commit. A lost session or repeatedly failing chunk restarts the upload
 * from scratch, a bounded number of times.
 */
export async function uploadBlob(ctx: UploadContext, source: BlobSource, session?: URL): Promise<void> {
  let location = session;
  for (let restarts = 0; ; restarts++) {
    try {
      location ??= await openSession(ctx);
      if (source.size <= ctx.chunkSize) await uploadMonolithic(ctx, source, location);
      else if (ctx.mode === "chunked" || ctx.client.chunkedUploads)
        await uploadChunked(ctx, source, location);
      else await uploadStreamed(ctx, source, location);
      return;
    } catch (error) {
      if (ctx.signal?.aborted) throw abortError(ctx.signal, ctx.operation);
      if (!(error instanceof RestartableError) || restarts >= ctx.client.retryPolicy.retries) {
        if (error instanceof RestartableError) throw new PkgError(ExitCode.Transient, error.message);
        throw error;
      }
      location = undefined;
    }
  }
}
