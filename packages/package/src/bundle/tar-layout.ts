import { encodeHeader, paddingFor } from "./tar-header.js";
import type { SourceEntry } from "./walk.js";

/** A run of consecutive entries whose tar bytes are assembled in one buffer: headers, small files, padding. */
export interface PackedSegment {
  kind: "packed";
  length: number;
  parts: { offset: number; header: Buffer; file?: { source: string; size: number; dataOffset: number } }[];
}

/** A file too large to hold whole: its header, then its content streamed in chunks, then padding. */
export interface LargeSegment {
  kind: "large";
  header: Buffer;
  source: string;
  size: number;
}

export type Segment = PackedSegment | LargeSegment;

export interface LayoutLimits {
  /** Files larger than this are streamed on their own. */
  largeFile: number;
  /** A packed segment grows to about this many bytes. */
  packedBytes: number;
}

/**
 * Cuts the tar stream of `entries` into segments, lazily so that only the headers of the segment
 * being filled are in memory. Byte layout only: nothing is read here.
 */
export function* layoutSegments(entries: Iterable<SourceEntry>, limits: LayoutLimits): Generator<Segment> {
  let packed: PackedSegment = { kind: "packed", length: 0, parts: [] };
  for (const entry of entries) {
    const header = encodeHeader(entry);
    if (entry.type === "file" && entry.size > limits.largeFile) {
      if (packed.parts.length > 0) yield packed;
      packed = { kind: "packed", length: 0, parts: [] };
      yield { kind: "large", header, source: entry.source, size: entry.size };
      continue;
    }
    const length = header.length + entry.size + paddingFor(entry.size);
    if (packed.parts.length > 0 && packed.length + length > limits.packedBytes) {
      yield packed;
      packed = { kind: "packed", length: 0, parts: [] };
    }
    const offset = packed.length;
    const file =
      entry.type === "file"
        ? { source: entry.source, size: entry.size, dataOffset: offset + header.length }
        : undefined;
    packed.parts.push({ offset, header, ...(file ? { file } : {}) });
    packed.length += length;
  }
  if (packed.parts.length > 0) yield packed;
}
