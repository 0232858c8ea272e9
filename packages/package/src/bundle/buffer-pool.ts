/**
 * Reusable buffers of one size. Handing a consumed chunk back lets the next read reuse its memory
 * instead of leaving tens of megabytes of garbage for the collector to find late.
 */
export class BufferPool {
  readonly size: number;
  #free: Buffer[] = [];
  #owned = new Map<ArrayBufferLike, Buffer>();

  constructor(size: number) {
    this.size = size;
  }

  /** A buffer of at least `length` bytes, with undefined content; larger requests are not pooled. */
  acquire(length: number): Buffer {
    if (length > this.size) return Buffer.allocUnsafeSlow(length);
    const reused = this.#free.pop();
    if (reused) return reused;
    const fresh = Buffer.allocUnsafeSlow(this.size);
    this.#owned.set(fresh.buffer, fresh);
    return fresh;
  }

  /** Takes back the buffer `chunk` is a view of, once nothing reads `chunk` any more. */
  release(chunk: Buffer): void {
    const base = this.#owned.get(chunk.buffer);
    if (base && !this.#free.includes(base)) this.#free.push(base);
  }
}
