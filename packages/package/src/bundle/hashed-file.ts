import { createHash } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";

/**
 * A new file written synchronously, hashing with sha256 and counting what is written, so the
 * digest needs no second read. Synchronous like the compressor that feeds it: a write lands in
 * the page cache, and a buffer handed over is free again as soon as the call returns.
 */
export class HashedFile {
  readonly #fd: number;
  readonly #hash = createHash("sha256");
  #bytes = 0;
  #closed = false;

  /** Creates `path`, which must not exist. */
  constructor(path: string) {
    this.#fd = openSync(path, "wx", 0o644);
  }

  get bytes(): number {
    return this.#bytes;
  }

  write(chunk: Buffer): void {
    this.#hash.update(chunk);
    for (let done = 0; done < chunk.length; ) done += writeSync(this.#fd, chunk, done, chunk.length - done);
    this.#bytes += chunk.length;
  }

  /** `sha256:<hex>` of everything written; call once, at the end. */
  digest(): string {
    return `sha256:${this.#hash.digest("hex")}`;
  }

  /** Closes the file; safe to call more than once. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    closeSync(this.#fd);
  }
}
