import { check, createXz, type Xz } from "node-liblzma";
import type { Emit, Encoder } from "./encoder.js";

const CHUNK_BYTES = 1 << 20;

/**
 * xz through node-liblzma's stream, whose calls into liblzma run on the libuv thread pool.
 * From 2 threads on liblzma's threaded encoder is used: blocks of 3 × the dictionary size,
 * compressed in parallel, and the same bytes for every thread count.
 */
export class XzEncoder implements Encoder {
  readonly #stream: Xz;
  #failure: Error | undefined;
  readonly #ended: Promise<void>;

  constructor(preset: number, threads: number, emit: Emit) {
    // CRC64 is what the xz tool writes by default; the binding would otherwise write no check
    this.#stream = createXz({ preset, threads, check: check.CRC64, chunkSize: CHUNK_BYTES });
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
}
