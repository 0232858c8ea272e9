import type { Transform } from "node:stream";
import { check, createUnxz, createXz } from "node-liblzma";

const CHUNK_BYTES = 1 << 16;

// node-liblzma's streams extend stream.Transform at run time, but its typings declare `on`
// overloads that Transform's do not accept; these two functions are the only places that cast.

/** An xz compressor stream, with node-liblzma's `close`, which frees the encoder at once. */
export type XzStream = Transform & { close(): void };

/** An xz compressor. From 2 threads on, liblzma's threaded encoder is used. */
export function xzCompressor(preset: number, threads: number): XzStream {
  // CRC64 is what the xz tool writes by default; the binding would otherwise write no check
  return createXz({ preset, threads, check: check.CRC64, chunkSize: CHUNK_BYTES }) as unknown as XzStream;
}

/** An xz decompressor that can be destroyed mid-stream safely (see `destroySafely`). */
export function xzDecompressor(): Transform {
  return destroySafely(createUnxz({ chunkSize: CHUNK_BYTES }) as unknown as Transform);
}

/** node-liblzma's stream state read here; not in its typings. */
interface LzmaInternals {
  _hadError: boolean;
}

/**
 * Destroying a node-liblzma stream does not stop liblzma work already queued on the thread pool:
 * its completion callback keeps decoding the rest of the chunk (gigabytes for a bomb) and ends by
 * emitting an error on the dead stream, which, with a pipeline's listeners gone, throws inside the
 * native callback and aborts the process. The binding checks `_hadError` before each step, so
 * setting it on destroy ends that work at once; the extra listener swallows what is emitted after
 * the pipeline has finished.
 */
function destroySafely<T extends Transform>(stream: T): T {
  const destroy = stream._destroy.bind(stream);
  stream._destroy = (error, callback) => {
    (stream as T & LzmaInternals)._hadError = true;
    destroy(error, callback);
  };
  stream.on("error", () => undefined);
  return stream;
}
