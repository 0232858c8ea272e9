import type { Duplex } from "node:stream";

/** node-liblzma's stream state read here; not in its typings. */
interface LzmaInternals {
  _hadError: boolean;
}

/**
 * Makes a node-liblzma stream safe to destroy mid-stream. Destroying it does not stop liblzma work
 * already queued on the thread pool: its completion callback keeps decoding the rest of the chunk
 * (gigabytes for a bomb) and ends by emitting an error on the dead stream, which, with pipeline's
 * listeners gone, throws inside the native callback and aborts the process. The binding checks
 * `_hadError` before each step, so setting it on destroy ends that work at once; the extra listener
 * swallows what is emitted after the pipeline has finished.
 */
export function destroySafely(stream: Duplex): Duplex {
  const destroy = stream._destroy.bind(stream);
  stream._destroy = (error, callback) => {
    (stream as Duplex & LzmaInternals)._hadError = true;
    destroy(error, callback);
  };
  stream.on("error", () => undefined);
  return stream;
}
