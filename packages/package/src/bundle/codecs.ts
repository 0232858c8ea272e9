import type { Transform } from "node:stream";
import { check, createUnxz, createXz, type Unxz, type Xz } from "node-liblzma";
import { CompressStream, DecompressStream } from "zstd-napi";
import type { BundlePlan } from "./options.js";

export type ArchiveKind = "zstd" | "xz" | "tar";

const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);
const XZ_MAGIC = Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]);
const USTAR_MAGIC = Buffer.from("ustar", "ascii");

/** Bytes needed by `detectArchive`: up to and including the ustar magic of a first header. */
export const DETECT_BYTES = 262;

/** What a file holds, judged by its leading bytes; undefined when it is none of the three. */
export function detectArchive(head: Buffer): ArchiveKind | undefined {
  if (head.subarray(0, ZSTD_MAGIC.length).equals(ZSTD_MAGIC)) return "zstd";
  if (head.subarray(0, XZ_MAGIC.length).equals(XZ_MAGIC)) return "xz";
  if (head.subarray(257, 262).equals(USTAR_MAGIC)) return "tar";
  return undefined;
}

const XZ_CHUNK = 1 << 20;

/** node-liblzma's streams extend stream.Transform, but its typings declare `on` overloads Transform's do not accept. */
function asTransform(stream: Xz | Unxz): Transform {
  return stream as unknown as Transform;
}

/**
 * The compressor for a plan. zstd always runs in multi-threaded mode (at least one worker), which
 * moves compression off the main thread and makes the output independent of the worker count.
 */
export function compressor(plan: BundlePlan): Transform {
  if (plan.format === "tar.zst") {
    return new CompressStream({ compressionLevel: plan.level, nbWorkers: plan.threads, checksumFlag: true });
  }
  // CRC64 is what the xz tool writes by default; liblzma's binding would otherwise write no check
  return asTransform(createXz({ preset: plan.level, threads: plan.threads, check: check.CRC64, chunkSize: XZ_CHUNK }));
}

/** The decompressor for an archive kind; a plain tar needs none. */
export function decompressor(kind: ArchiveKind): Transform | undefined {
  if (kind === "zstd") return new DecompressStream();
  if (kind === "xz") return asTransform(createUnxz({ chunkSize: XZ_CHUNK }));
  return undefined;
}
