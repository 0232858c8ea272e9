import type { Transform } from "node:stream";
import { DecompressStream } from "zstd-napi";
import type { Emit, Encoder } from "./encoder.js";
import { xzDecompressor } from "./liblzma.js";
import type { BundlePlan } from "./options.js";
import { XzEncoder } from "./xz-encoder.js";
import { ZstdEncoder } from "./zstd-encoder.js";

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

/** The compressor for a plan, emitting its output to `emit`. */
export function createEncoder(plan: BundlePlan, emit: Emit): Encoder {
  if (plan.format === "tar.zst") return new ZstdEncoder(plan.level, plan.threads, emit);
  return new XzEncoder(plan.level, plan.threads, emit);
}

/** The decompressor for an archive kind; a plain tar needs none. */
export function decompressor(kind: ArchiveKind): Transform | undefined {
  if (kind === "zstd") return new DecompressStream();
  if (kind === "xz") return xzDecompressor();
  return undefined;
}
