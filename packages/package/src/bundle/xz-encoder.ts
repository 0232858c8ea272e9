import type { Emit, Encoder } from "./encoder.js";
import { type XzStream, xzCompressor } from "./liblzma.js";

/**
 * xz through node-liblzma's stream, whose calls into liblzma run on the libuv thread pool.
 * With 2 threads or more liblzma's threaded encoder is used: blocks of 3 × the dictionary size,
 * compressed in parallel, and the same bytes for every thread count.
 */
export class XzEncoder implements Encoder {
  readonly #stream: XzStream;
  #failure: Error | undefined;
  readonly #ended: Promise<void>;

  constructor(preset: number, threads: number, emit: Emit) {
    this.#stream = xzCompressor(preset, threads);
    this.#stream.on("data", (chunk: Buffer) => emit(chunk));
    this.#ended = new Promise((resolve, reject) => {
      this.#stream.once("end", () => resolve());
      this.#stream.once("error", (error: Error) => {
        this.#failure = error;
        reject(error);
      });
    });
    this.#ended.catch(() => undefined);
  }

  write(input: Buffer): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure);
    return new Promise((resolve, reject) => {
      this.#stream.write(input, (error) => (error ? reject(error) : resolve()));
    });
  }

  end(): Promise<void> {
    this.#stream.end();
    return this.#ended;
  }

  /** Frees liblzma's encoder and its threads now rather than at garbage collection. */
  abort(): void {
    this.#stream.close();
  }
}
