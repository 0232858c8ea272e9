import { Transform, type TransformCallback } from "node:stream";
import { dataError } from "@pkg/common";

/** Bounds on what one asset may unpack to, so that a decompression bomb stops early. */
export interface UnpackLimits {
  /** Total bytes after decompression (the tar stream, every zip entry, or the single file). */
  maxBytes: number;
  /** Archive entries of any kind, dropped ones included. */
  maxEntries: number;
  /** Largest expansion: bytes after decompression per byte of the asset as downloaded. */
  maxRatio: number;
  /** `maxRatio` applies only once the bytes after decompression pass this floor. */
  ratioFloorBytes: number;
}

/**
 * 4 GiB and a million entries bound what any asset may cost. The ratio stops a bomb long before
 * that: real release archives (executables, libraries, source and docs) expand 2:1 to 20:1, while
 * a bomb is repeated or zero data at 1000:1 (the most gzip can reach) and well beyond (bzip2, xz,
 * zstd); 200:1 leaves ten times the margin above honest content and stops a 1 GiB-of-zeros bomb of
 * a few kilobytes at the floor instead of at 4 GiB. The 64 MiB floor lets a small asset of very
 * compressible content (sparse text, padding, a tiny asset holding a large zeroed file) through
 * whatever its ratio: below that size the unpacking is cheap and harmless.
 */
export const DEFAULT_UNPACK_LIMITS: UnpackLimits = {
  maxBytes: 4 * 1024 ** 3,
  maxEntries: 1_000_000,
  maxRatio: 200,
  ratioFloorBytes: 64 * 1024 ** 2,
};

/**
 * Counts what an asset has unpacked to so far and refuses to go past its limits, as the bytes
 * arrive (messages name no asset: the caller prefixes it).
 */
export class UnpackBudget {
  #bytes = 0;
  #entries = 0;
  /** Bytes past which the expansion ratio is exceeded: never below the floor. */
  readonly #ratioCeiling: number;

  /** `assetBytes`: the size of the asset as downloaded (compressed), the base of the ratio. */
  constructor(
    readonly limits: UnpackLimits,
    readonly assetBytes: number,
  ) {
    this.#ratioCeiling = Math.max(limits.ratioFloorBytes, limits.maxRatio * assetBytes);
  }

  get bytes(): number {
    return this.#bytes;
  }

  get entries(): number {
    return this.#entries;
  }

  takeBytes(count: number): void {
    this.#bytes += count;
    if (this.#bytes > this.limits.maxBytes) {
      throw dataError(
        `unpacks to more than ${this.limits.maxBytes} bytes (the limit); refusing it as a decompression bomb`,
        "unpack_limit",
      );
    }
    if (this.#bytes > this.#ratioCeiling) {
      throw dataError(
        `unpacks to more than ${this.#ratioCeiling} bytes, over ${this.limits.maxRatio} times its own ${this.assetBytes} (the expansion limit past ${this.limits.ratioFloorBytes} bytes); refusing it as a decompression bomb`,
        "unpack_limit",
      );
    }
  }

  takeEntry(): void {
    this.#entries++;
    if (this.#entries > this.limits.maxEntries) {
      throw dataError(
        `holds more than ${this.limits.maxEntries} entries (the limit); refusing it`,
        "unpack_limit",
      );
    }
  }

  /** A pass-through stage that charges every byte flowing through it. */
  tap(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) => {
        try {
          this.takeBytes(chunk.length);
          callback(null, chunk);
        } catch (error) {
          callback(error as Error);
        }
      },
    });
  }
}
