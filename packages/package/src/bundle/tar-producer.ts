import type { BufferPool } from "./buffer-pool.js";
import { readFileInto, SourceFile } from "./read-source.js";
import { END_OF_ARCHIVE, paddingFor } from "./tar-header.js";
import { type LargeSegment, type LayoutLimits, layoutSegments, type PackedSegment } from "./tar-layout.js";
import type { SourceEntry } from "./walk.js";

export const defaultLimits: LayoutLimits = { largeFile: 1 << 20, packedBytes: 1 << 20 };

/** Pool buffers hold a packed segment (and the byte a growing file would spill) or a chunk of a large file. */
export function poolSizeFor(limits: LayoutLimits): number {
  return Math.max(limits.packedBytes, limits.largeFile) + 1;
}

function fillPacked(segment: PackedSegment, pool: BufferPool): Buffer {
  // one spare byte lets the last file's read notice a file that grew
  const buffer = pool.acquire(segment.length + 1).fill(0, 0, segment.length + 1);
  for (const part of segment.parts) {
    part.header.copy(buffer, part.offset);
    if (part.file && part.file.size > 0) readFileInto(part.file.source, part.file.size, buffer, part.file.dataOffset);
  }
  return buffer.subarray(0, segment.length);
}

function* streamLarge(segment: LargeSegment, pool: BufferPool): Generator<Buffer> {
  yield segment.header;
  const file = new SourceFile(segment.source, segment.size);
  try {
    while (file.remaining > 0) {
      const chunk = pool.acquire(pool.size);
      const length = Math.min(pool.size, file.remaining);
      file.readNext(chunk, 0, length);
      yield chunk.subarray(0, length);
    }
    file.finish();
  } finally {
    file.close();
  }
  const padding = paddingFor(segment.size);
  if (padding > 0) yield END_OF_ARCHIVE.subarray(0, padding);
}

/**
 * The tar stream of `entries` in chunks of about a megabyte taken from `pool`: runs of small files
 * are assembled into one buffer, large files are streamed. Hand each chunk back to the pool once
 * it has been consumed; memory then stays bounded whatever the size of the tree.
 */
export function* tarChunks(entries: SourceEntry[], pool: BufferPool, limits = defaultLimits): Generator<Buffer> {
  for (const segment of layoutSegments(entries, limits)) {
    if (segment.kind === "packed") yield fillPacked(segment, pool);
    else yield* streamLarge(segment, pool);
  }
  yield END_OF_ARCHIVE;
}
