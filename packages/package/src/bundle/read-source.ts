import { closeSync, openSync, readSync } from "node:fs";
import { ExitCode, PkgError } from "@pkg/common";

// Reads are synchronous on purpose: on trees of thousands of small files, the per-call cost of
// asynchronous file operations exceeded the reading itself, while compression runs on its own threads.

function changedWhileReading(source: string, size: number): PkgError {
  return new PkgError(
    ExitCode.IoError,
    `${source}: changed while being read (it had ${size} bytes when listed)`,
  );
}

/** Reads until `length` bytes are in or the file ends; returns how many were read. */
function readFully(fd: number, target: Buffer, offset: number, length: number, position: number): number {
  let done = 0;
  while (done < length) {
    const bytesRead = readSync(fd, target, offset + done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done;
}

/** An open source file of a known size, read in order; a file that grew or shrank since it was listed is an error. */
export class SourceFile {
  readonly #fd: number;
  readonly #source: string;
  readonly #size: number;
  #position = 0;
  #closed = false;

  constructor(source: string, size: number) {
    this.#fd = openSync(source, "r");
    this.#source = source;
    this.#size = size;
  }

  get remaining(): number {
    return this.#size - this.#position;
  }

  /** Fills `target[offset .. offset + length)` with the next `length` bytes. */
  readNext(target: Buffer, offset: number, length: number): void {
    if (readFully(this.#fd, target, offset, length, this.#position) !== length) {
      throw changedWhileReading(this.#source, this.#size);
    }
    this.#position += length;
  }

  /** Checks that the file ends where it was listed to end, and closes it. */
  finish(): void {
    try {
      if (readFully(this.#fd, Buffer.alloc(1), 0, 1, this.#size) !== 0)
        throw changedWhileReading(this.#source, this.#size);
    } finally {
      this.close();
    }
  }

  /** Closes the file; safe to call more than once. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    closeSync(this.#fd);
  }
}

/**
 * Reads the whole of a file of `size` bytes into `target` at `offset`, asking for one byte more so
 * that growth shows (`target` must have room for it).
 */
export function readFileInto(source: string, size: number, target: Buffer, offset: number): void {
  const fd = openSync(source, "r");
  try {
    if (readFully(fd, target, offset, size + 1, 0) !== size) throw changedWhileReading(source, size);
  } finally {
    closeSync(fd);
  }
}
