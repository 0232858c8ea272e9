/** Reads a blob source in pieces of a chosen size, whether it is a stream or a buffer. */
export class ChunkReader {
  readonly #buffer: Buffer | undefined;
  readonly #iterator: AsyncIterator<Buffer | string> | undefined;
  readonly #stream: NodeJS.ReadableStream | undefined;
  #offset = 0;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #ended = false;

  constructor(source: NodeJS.ReadableStream | Buffer) {
    if (Buffer.isBuffer(source)) {
      this.#buffer = source;
    } else {
      this.#stream = source;
      this.#iterator = (source as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
    }
  }

  /** Up to `size` bytes; fewer only at the end of the source, empty once it is exhausted. */
  async read(size: number): Promise<Buffer> {
    if (this.#buffer) {
      const piece = this.#buffer.subarray(this.#offset, this.#offset + size);
      this.#offset += piece.length;
      return piece;
    }
    const iterator = this.#iterator as AsyncIterator<Buffer | string>;
    while (this.#pendingBytes < size && !this.#ended) {
      const next = await iterator.next();
      if (next.done) {
        this.#ended = true;
        break;
      }
      const chunk = typeof next.value === "string" ? Buffer.from(next.value) : next.value;
      this.#pending.push(chunk);
      this.#pendingBytes += chunk.length;
    }
    const all = this.#pending.length === 1 ? (this.#pending[0] as Buffer) : Buffer.concat(this.#pending);
    const piece = all.subarray(0, size);
    const rest = all.subarray(size);
    this.#pending = rest.length > 0 ? [rest] : [];
    this.#pendingBytes = rest.length;
    return piece;
  }

  /** Stops reading a stream that is not needed to its end. */
  close(): void {
    const stream = this.#stream as (NodeJS.ReadableStream & { destroy?: () => void }) | undefined;
    stream?.destroy?.();
  }
}
