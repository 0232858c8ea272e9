import { Transform, type TransformCallback } from "node:stream";
import { dataError } from "@pkg/common";

/** Bounds on what one asset may unpack to, so that a decompression bomb stops early. */
export interface UnpackLimits {
  /** Total bytes after decompression (the tar stream, every zip entry, or the single file). */
  maxBytes: number;
  /** Archive entries of any kind, dropped ones included. */
  maxEntries: number;
}

export const DEFAULT_UNPACK_LIMITS: UnpackLimits = { maxBytes: 4 * 1024 ** 3, maxEntries: 1_000_000 };

/** Counts what an asset has unpacked to so far and refuses to go past its limits (messages name no asset: the caller prefixes it). */
export class UnpackBudget {
  #bytes = 0;
  #entries = 0;

  constructor(readonly limits: UnpackLimits) {}

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
