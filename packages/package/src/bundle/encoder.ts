/** A compressor driven chunk by chunk; its output goes to the `emit` it was made with. */
export interface Encoder {
  /** Compresses `input`; settles once `input` has been consumed and its buffer may be reused. */
  write(input: Buffer): void | Promise<void>;
  /** Finishes the compressed stream; all of the output has been emitted when this settles. */
  end(): void | Promise<void>;
  /** Releases what the compressor holds after a failure; no write may be pending. */
  abort(): void;
}

/** Receives compressed output; the buffer is only valid during the call. */
export type Emit = (output: Buffer) => void;
