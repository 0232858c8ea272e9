import { Transform, type TransformCallback, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { PkgError } from "@pkg/common";
import type { Dispatcher } from "undici";
import { HttpTransportError } from "./errors.js";

type Body = Dispatcher.ResponseData["body"];

/** Abandons a body whose content is not wanted; its stream's own abort error is of no interest. */
export function discard(body: Body): void {
  body.on("error", () => {});
  body.destroy();
}

function tooLarge(url: URL, maxBytes: number): HttpTransportError {
  return new HttpTransportError(url, `response body is larger than ${maxBytes} bytes`, { transient: false });
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
    throw tooLarge(url, maxBytes);
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
