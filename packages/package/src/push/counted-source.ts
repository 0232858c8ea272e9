import { Transform } from "node:stream";
import type { BlobSource } from "@pkg/oci";

/** A pass-through that tells `onChunk` the size of every chunk going through it (progress). */
export function byteCounter(onChunk: (bytes: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      onChunk(chunk.length);
      callback(null, chunk);
    },
  });
}

/**
 * `source` with its bytes counted as the upload reads them: `onRead` is told how many more were
 * read. A retried upload opens the source again and counts again from its start, so the caller
 * keeps its own total per source (see `pushPackage`).
 */
export function countedSource(
  source: BlobSource,
  onRead: (bytes: number, restarted: boolean) => void,
): BlobSource {
  const { unchanged } = source;
  return {
    digest: source.digest,
    size: source.size,
    ...(unchanged === undefined ? {} : { unchanged: () => unchanged.call(source) }),
    open() {
      onRead(0, true);
      const opened = source.open();
      if (Buffer.isBuffer(opened)) {
        onRead(opened.length, false);
        return opened;
      }
      const counter = byteCounter((bytes) => onRead(bytes, false));
      opened.on("error", (error: Error) => counter.destroy(error));
      counter.on("close", () => {
        // the reader gave up early (a retried send): the file behind it closes too
        const stream = opened as NodeJS.ReadableStream & { destroy?: () => void };
        if (!counter.readableEnded) stream.destroy?.();
      });
      return opened.pipe(counter);
    },
  };
}
