import { createHash, type Hash } from "node:crypto";
import { Transform, type TransformCallback } from "node:stream";

/** Passes bytes through unchanged while hashing them with sha256 and counting them. */
export class DigestTap extends Transform {
  #hash: Hash = createHash("sha256");
  #bytes = 0;

  constructor(highWaterMark = 1 << 20) {
    super({ highWaterMark });
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** `sha256:<hex>` of everything that passed; call once, after the stream has finished. */
  digest(): string {
    return `sha256:${this.#hash.digest("hex")}`;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#hash.update(chunk);
    this.#bytes += chunk.length;
    callback(null, chunk);
  }
}
