import type { Duplex } from "node:stream";
import { createGunzip } from "node:zlib";
import { decompressor } from "@pkg/package/bundle";
import { bunzip2 } from "./bunzip2.js";
import type { Compression } from "./formats.js";

/** A decompressor stage for a compression layer. */
export function decompressorFor(compression: Compression): Duplex {
  switch (compression) {
    case "gzip":
      // 128 KiB output steps instead of zlib's 16 KiB: a third less CPU per asset; the bomb
      // limit is still checked on every step
      return createGunzip({ chunkSize: 1 << 17 });
    case "bzip2":
      return bunzip2();
    case "zstd":
    case "xz": {
      // the bundle's decompressors bound their output per step and are safe to destroy
      // mid-stream, so a bomb stops at the unpack limit
      const stage = decompressor(compression);
      if (!stage) throw new Error(`no ${compression} decompressor`);
      return stage;
    }
  }
}

/**
 * Read size for an asset: compressed input goes in small chunks, since node-liblzma expands a whole
 * chunk without waiting for its reader.
 */
export function readChunkSize(compression: Compression | undefined): number {
  return compression ? 1 << 16 : 1 << 20;
}
