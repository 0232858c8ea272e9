import { Duplex } from "node:stream";
// the binding builds its exports at run time, so Node sees only a default export
import binding from "zstd-napi/binding.js";

/**
 * Decodes zstd one output buffer at a time, yielding after each. zstd-napi's DecompressStream
 * expands a whole input chunk in one synchronous call, which for a bomb (a few bytes per 128 KiB
 * of zeros) means gigabytes in memory before any limit can look at them.
 */
async function* decodeZstd(input: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const context = new binding.DCtx();
  const size = binding.dStreamOutSize();
  let inFrame = false;
  for await (const chunk of input) {
    let source: Buffer = chunk;
    for (;;) {
      const out = Buffer.allocUnsafe(size);
      const [remaining, produced, consumed] = context.decompressStream(out, source);
      source = source.subarray(consumed);
      inFrame = remaining !== 0;
      if (produced > 0) yield out.subarray(0, produced);
      // done with this chunk once it is consumed and the decoder has nothing more to flush
      if (source.length === 0 && (produced < size || remaining === 0)) break;
    }
  }
  if (inFrame) throw new Error("zstd stream ended in the middle of a frame");
}

/** A zstd decompressor stage for a stream pipeline. */
export function unzstd(): Duplex {
  return Duplex.from(decodeZstd);
}
