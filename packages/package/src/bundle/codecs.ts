import type { Duplex } from "node:stream";
import type { ArchiveKind } from "./archive-kind.js";
import type { Emit, Encoder } from "./encoder.js";
import { xzDecompressor } from "./liblzma.js";
import type { BundlePlan } from "./options.js";
import { unzstd } from "./unzstd.js";
import { XzEncoder } from "./xz-encoder.js";
import { ZstdEncoder } from "./zstd-encoder.js";

/** The compressor for a plan, emitting its output to `emit`. */
export function createEncoder(plan: BundlePlan, emit: Emit): Encoder {
  if (plan.format === "tar.zst") return new ZstdEncoder(plan.level, plan.threads, emit);
  return new XzEncoder(plan.level, plan.threads, emit);
}

/** The decompressor for an archive kind; a plain tar needs none. */
export function decompressor(kind: ArchiveKind): Duplex | undefined {
  if (kind === "zstd") return unzstd();
  if (kind === "xz") return xzDecompressor();
  return undefined;
}
