// unbzip2-stream's block decoder, used directly (see bunzip2.ts); the package ships no types for it.
declare module "unbzip2-stream/lib/bzip2.js" {
  export interface BitReader {
    (bits: number | null): number;
    bytesRead: number;
  }
  const bzip2: {
    /** Reads the "BZh<level>" stream header; returns the level (block size in units of 100 kB). */
    header(bits: BitReader): number;
    /** Decodes one block, calling `emit` per byte; returns the running stream CRC, or null at the end of a stream. */
    decompress(
      bits: BitReader,
      emit: (byte: number) => void,
      buf: Int32Array,
      bufsize: number,
      streamCRC: number | null,
    ): number | null;
  };
  export default bzip2;
}

declare module "unbzip2-stream/lib/bit_iterator.js" {
  import type { BitReader } from "unbzip2-stream/lib/bzip2.js";
  export default function bitIterator(nextBuffer: () => Buffer | undefined): BitReader;
}
