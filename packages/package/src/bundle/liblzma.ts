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

export function xzDecompressor(): Transform {
  return createUnxz({ chunkSize: CHUNK_BYTES }) as unknown as Transform;
}
