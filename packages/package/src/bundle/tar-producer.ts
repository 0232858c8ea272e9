import { readFileInto, SourceFile } from "./read-source.js";
import { END_OF_ARCHIVE, paddingFor } from "./tar-header.js";
import { type LargeSegment, type LayoutLimits, layoutSegments, type PackedSegment } from "./tar-layout.js";
import type { SourceEntry } from "./walk.js";

export const defaultLimits: LayoutLimits = { largeFile: 1 << 20, packedBytes: 1 << 20 };

/** One buffer, reused for every chunk: it grows only for a packed segment larger than the usual. */
class ChunkBuffer {
  #buffer: Buffer;

  constructor(size: number) {
    this.#buffer = Buffer.allocUnsafeSlow(size);
  }

  get size(): number {
    return this.#buffer.length;
  }

  take(length: number): Buffer {
    if (length > this.#buffer.length) this.#buffer = Buffer.allocUnsafeSlow(length);
    return this.#buffer;
  }
}

function fillPacked(segment: PackedSegment, chunks: ChunkBuffer): Buffer {
  // one spare byte lets the last file's read notice a file that grew
  const buffer = chunks.take(segment.length + 1).fill(0, 0, segment.length + 1);
  for (const part of segment.parts) {
    part.header.copy(buffer, part.offset);
    if (part.file && part.file.size > 0)
      readFileInto(part.file.source, part.file.size, buffer, part.file.dataOffset);
  }
  return buffer.subarray(0, segment.length);
}

function* streamLarge(segment: LargeSegment, chunks: ChunkBuffer): Generator<Buffer> {
  yield segment.header;
  const file = new SourceFile(segment.source, segment.size);
  try {
    while (file.remaining > 0) {
      const length = Math.min(chunks.size, file.remaining);
      const buffer = chunks.take(length);
      file.readNext(buffer, 0, length);
      yield buffer.subarray(0, length);
    }
    file.finish();
  } finally {
    file.close();
  }
  const padding = paddingFor(segment.size);
  if (padding > 0) yield END_OF_ARCHIVE.subarray(0, padding);
}

/**
 * The tar stream of `entries` in chunks of about a megabyte: runs of small files are assembled in
 * one buffer, large files are streamed. Every chunk is a view of the same reused buffer, valid
 * only until the next one is asked for, so memory stays bounded whatever the size of the tree.
 */
export function* tarChunks(entries: Iterable<SourceEntry>, limits = defaultLimits): Generator<Buffer> {
  const chunks = new ChunkBuffer(Math.max(limits.packedBytes, limits.largeFile) + 1);
  for (const segment of layoutSegments(entries, limits)) {
    if (segment.kind === "packed") yield fillPacked(segment, chunks);
    else yield* streamLarge(segment, chunks);
  }
  yield END_OF_ARCHIVE;
}
