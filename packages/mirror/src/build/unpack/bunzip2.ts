import { Duplex } from "node:stream";
import bitIterator from "unbzip2-stream/lib/bit_iterator.js";
import bzip2, { type BitReader } from "unbzip2-stream/lib/bzip2.js";

/**
 * Compressed bytes a block may take: the bound unbzip2-stream itself waits for before decoding one,
 * so that the decoder never runs out of input in the middle of a block.
 */
const blockInputBound = (level: number) => 25_000 + 100_000 * level;
const OUTPUT_CHUNK = 1 << 16;

/** Collects the decoder's per-byte output into buffers. */
class ByteSink {
  readonly full: Buffer[] = [];
  #buffer = Buffer.allocUnsafe(OUTPUT_CHUNK);
  #used = 0;

  readonly emit = (byte: number): void => {
    this.#buffer[this.#used++] = byte;
    if (this.#used === OUTPUT_CHUNK) {
      this.full.push(this.#buffer);
      this.#buffer = Buffer.allocUnsafe(OUTPUT_CHUNK);
      this.#used = 0;
    }
  };

  /** Everything emitted since the last drain. */
  drain(): Buffer[] {
    const out = this.full.splice(0);
    if (this.#used > 0) {
      out.push(Buffer.from(this.#buffer.subarray(0, this.#used)));
      this.#used = 0;
    }
    return out;
  }
}

/**
 * Decodes bzip2 (concatenated streams too) one block at a time, yielding after each block.
 * unbzip2-stream's own stream decodes every block its input allows in one synchronous call, which
 * a bomb turns into gigabytes held in memory; driving its block decoder here keeps backpressure.
 */
async function* decodeBzip2(input: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const queue: Buffer[] = [];
  let received = 0;
  let bits: BitReader | undefined;
  let level = 0;
  let streamCrc: number | null = null;
  let scratch = new Int32Array(0);
  const sink = new ByteSink();

  // Decodes one header or block; false when nothing is left to decode.
  const step = (): boolean => {
    if (!bits) return false;
    if (level === 0) {
      level = bzip2.header(bits);
      if (scratch.length !== 100_000 * level) scratch = new Int32Array(100_000 * level);
      streamCrc = 0;
      return true;
    }
    streamCrc = bzip2.decompress(bits, sink.emit, scratch, scratch.length, streamCrc);
    if (streamCrc === null) level = 0;
    return true;
  };
  const pending = () => (bits ? received - bits.bytesRead : 0);

  for await (const chunk of input) {
    queue.push(chunk);
    received += chunk.length;
    bits ??= bitIterator(() => queue.shift());
    while (pending() + 1 >= blockInputBound(level) && step()) yield* sink.drain();
  }
  while (pending() > 0 && step()) yield* sink.drain();
  if (level !== 0) throw new Error("bzip2 stream ended before its end-of-stream marker");
}

/** A bzip2 decompressor stage for a stream pipeline. */
export function bunzip2(): Duplex {
  return Duplex.from(decodeBzip2);
}
