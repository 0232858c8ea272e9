import { createHash } from "node:crypto";
import { ExitCode } from "@pkg/common";
import { withRetries } from "@pkg/net";
import { ChunkReader } from "./chunk-reader.js";
import { drain } from "./response.js";
import type { BlobSource } from "./types.js";
import {
  checkContent,
  commit,
  isRequestTransient,
  locationOf,
  octetStream,
  RestartableError,
  type UploadContext,
  unexpected,
  uploadStatus,
} from "./upload-session.js";

/**
 * Sends one chunk with PATCH; after a transient failure (retried per the client's policy) or a
 * 416, asks the registry how much arrived and resends the rest.
 */
async function sendChunk(ctx: UploadContext, location: URL, chunk: Buffer, start: number): Promise<URL> {
  let url = location;
  let sent = 0;
  const end = start + chunk.length - 1;
  /** Where the session stands; true once it holds the whole chunk. */
  const resume = async (): Promise<boolean> => {
    const status = await uploadStatus(ctx, url);
    if (!status || status.next < start || status.next > start + chunk.length) {
      throw new RestartableError(ExitCode.Transient, `${ctx.operation}: the upload session was lost`);
    }
    url = status.location;
    sent = status.next - start;
    return sent === chunk.length;
  };
  const attempt = async (n: number): Promise<URL> => {
    if (n > 1 && (await resume())) return url;
    for (;;) {
      const response = await ctx.client.request({
        signal: ctx.signal,
        method: "PATCH",
        url,
        headers: { ...octetStream, "content-range": `${start + sent}-${end}` },
        body: chunk.subarray(sent),
        scopes: ctx.scopes,
        operation: ctx.operation,
        retry: false,
      });
      if (response.status === 202) {
        await drain(response);
        return locationOf(response, url, ctx.operation);
      }
      if (response.status !== 416) throw await unexpected(response, "a chunk upload", ctx.operation);
      await drain(response);
      if (await resume()) return url;
    }
  };
  try {
    return await withRetries(ctx.client.retryPolicy, attempt, {
      isRetryable: isRequestTransient,
      ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
    });
  } catch (error) {
    if (isRequestTransient(error)) throw new RestartableError(ExitCode.Transient, error.message);
    throw error;
  }
}

/**
 * Uploads a blob in PATCH chunks of at most the chunk size into the session at `location`, which
 * holds the first `from` bytes already, then commits it. Those bytes are read and hashed again,
 * not sent, so the digest check covers the whole blob.
 */
export async function uploadChunked(
  ctx: UploadContext,
  source: BlobSource,
  location: URL,
  from = 0,
): Promise<void> {
  const reader = new ChunkReader(source.open());
  const hash = createHash("sha256");
  // Chunks are read and hashed in order, each while the previous one is on the wire; pieces
  // before `from` end at `from`, so a chunk is either all there already or all to send. Past the
  // declared end, one byte more tells whether the source is longer than declared.
  const readNext = (at: number): Promise<Buffer> => {
    const within = at < source.size;
    const end = at < from ? from : source.size;
    const read = reader.read(within ? Math.min(ctx.chunkSize, end - at) : 1).then((chunk) => {
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
      if (offset >= from) url = await sendChunk(ctx, url, chunk, offset);
      offset += chunk.length;
    }
    checkContent(source, offset + extra, `sha256:${hash.digest("hex")}`, ctx.operation);
  } finally {
    reader.close();
  }
  await commit(ctx, url, source.digest, source.size);
}
