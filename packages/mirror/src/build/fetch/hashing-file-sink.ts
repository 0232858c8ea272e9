import { type FileHandle, open } from "node:fs/promises";
import { Writable } from "node:stream";
import { writeAll } from "@pkg/package/bundle";
import { type DigestAlgorithm, DigestSet } from "./digest.js";

/**
 * A Writable that writes to a new file (created or truncated) and hashes what it writes; the
 * file is closed when the stream finishes or is destroyed.
 */
export class HashingFileSink extends Writable {
  private file: FileHandle | undefined;
  private readonly hashes: DigestSet;
  private result: Map<DigestAlgorithm, string> | undefined;

  #written = 0;

  constructor(
    private readonly path: string,
    algorithms: Iterable<DigestAlgorithm>,
    /** Told the bytes written so far after each write (progress). */
    private readonly onWritten?: (bytes: number) => void,
  ) {
    // room for the chunks that arrive during one write, which `_writev` then writes together
    // (one writev, no copy into a joined buffer)
    super({ highWaterMark: 1 << 20 });
    this.hashes = new DigestSet(algorithms);
  }

  override _construct(callback: (error?: Error | null) => void): void {
    open(this.path, "w", 0o644).then(
      (file) => {
        this.file = file;
        callback();
      },
      (error: Error) => callback(error),
    );
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.hashes.update(chunk);
    writeAll(this.file as FileHandle, [chunk]).then(() => this.#wrote(chunk.length, callback), callback);
  }

  override _writev(
    chunks: Array<{ chunk: Buffer; encoding: BufferEncoding }>,
    callback: (error?: Error | null) => void,
  ): void {
    const buffers = chunks.map(({ chunk }) => chunk);
    let bytes = 0;
    for (const buffer of buffers) {
      this.hashes.update(buffer);
      bytes += buffer.length;
    }
    writeAll(this.file as FileHandle, buffers).then(() => this.#wrote(bytes, callback), callback);
  }

  #wrote(bytes: number, callback: () => void): void {
    this.#written += bytes;
    this.onWritten?.(this.#written);
    callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.result = this.hashes.digest();
    this.closeFile().then(() => callback(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.closeFile().then(
      () => callback(error),
      () => callback(error),
    );
  }

  private async closeFile(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    await file?.close();
  }

  /** The digests of everything written; available once the stream has finished. */
  digests(): Map<DigestAlgorithm, string> {
    if (!this.result) throw new Error(`${this.path} is not completely written yet`);
    return this.result;
  }
}
