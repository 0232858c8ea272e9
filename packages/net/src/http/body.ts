import { type Readable, Transform, type TransformCallback, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { PkgError } from "@pkg/common";
import { HttpBodyTooLargeError, HttpTransportError } from "./errors.js";

type Body = Readable;

/** Abandons a body whose content is not wanted; its stream's own abort error is of no interest. */
export function discard(body: Body): void {
  body.on("error", () => {});
  body.destroy();
}

/**
 * Reads off a body whose content is not wanted, so that its connection can serve the next
 * request; one longer than `limit` is abandoned instead (its connection closed). Never rejects.
 */
export function drain(body: Body, limit = 64 * 1024): Promise<void> {
  return new Promise((resolve) => {
    if (body.readableEnded || body.destroyed) {
      resolve();
      return;
    }
    let seen = 0;
    body.on("data", (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit) discard(body);
    });
    body.on("end", () => resolve());
    body.on("error", () => resolve());
    body.on("close", () => resolve());
    body.resume();
  });
}

function tooLarge(url: URL, maxBytes: number, declared?: number): HttpTransportError {
  return new HttpBodyTooLargeError(url, maxBytes, declared);
}

/** The declared length, when the answer declares one that parses. */
function declaredLength(declared: string | string[] | undefined): number | undefined {
  if (typeof declared !== "string" || !/^[0-9]+$/.test(declared)) return undefined;
  return Number(declared);
}

/** Refuses a body whose declared length already exceeds the limit, before any byte is read. */
function refuseDeclaredOverLimit(
  body: Body,
  url: URL,
  maxBytes: number | undefined,
  declared: number | undefined,
) {
  if (maxBytes !== undefined && declared !== undefined && declared > maxBytes) {
    discard(body);
    throw tooLarge(url, maxBytes, declared);
  }
}

/** Reads a whole body into memory, at most `maxBytes`. */
export async function readBody(
  body: Body,
  url: URL,
  maxBytes: number | undefined,
  declared: string | string[] | undefined,
): Promise<Buffer> {
  refuseDeclaredOverLimit(body, url, maxBytes, declaredLength(declared));
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    length += buffer.length;
    if (maxBytes !== undefined && length > maxBytes) {
      discard(body);
      throw tooLarge(url, maxBytes);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** Passes chunks through, counting them and failing once more than `maxBytes` went by. */
class ByteCounter extends Transform {
  bytes = 0;
  constructor(
    private readonly url: URL,
    private readonly maxBytes: number | undefined,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.maxBytes !== undefined && this.bytes > this.maxBytes)
      callback(tooLarge(this.url, this.maxBytes));
    else callback(null, chunk);
  }
}

/**
 * Streams a body into `sink`, at most `maxBytes`, and resolves with the byte count once the sink
 * has finished. A failure of the body (reset, idle timeout) or a body shorter than its declared
 * length rejects with a transient `HttpTransportError`; the sink's own errors pass as they are.
 * On any failure every stream is destroyed.
 */
export async function pumpBody(
  body: Body,
  sink: Writable,
  url: URL,
  maxBytes: number | undefined,
  declared: string | string[] | undefined,
): Promise<number> {
  const expected = declaredLength(declared);
  refuseDeclaredOverLimit(body, url, maxBytes, expected);
  const counter = new ByteCounter(url, maxBytes);
  // pipeline destroys every stream with the first error, so its origin is the first stream to emit
  let origin: "body" | "sink" | undefined;
  body.on("error", () => {
    origin ??= "body";
  });
  sink.on("error", () => {
    origin ??= "sink";
  });
  try {
    await pipeline(body, counter, sink);
  } catch (error) {
    if (error instanceof PkgError || origin !== "body") throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new HttpTransportError(url, `download interrupted: ${reason}`, { cause: error, transient: true });
  }
  if (expected !== undefined && counter.bytes !== expected) {
    throw new HttpTransportError(url, `download interrupted after ${counter.bytes} of ${expected} bytes`, {
      transient: true,
    });
  }
  return counter.bytes;
}
