import { createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import { writeAtomically } from "./atomic-output.js";
import { BufferPool } from "./buffer-pool.js";
import { compressor } from "./codecs.js";
import { DigestTap } from "./digest-tap.js";
import { type BundlePlan, type CreateBundleOptions, planBundle } from "./options.js";
import { pump } from "./pump.js";
import { defaultLimits, poolSizeFor, tarChunks } from "./tar-producer.js";
import { type SourceEntry, walkTree } from "./walk.js";

export interface BundleResult {
  /** `sha256:<hex>` of the compressed file. */
  digest: string;
  /** Bytes of the compressed file. */
  size: number;
  /** Bytes of the tar stream inside it. */
  uncompressedSize: number;
  /** Tar entries: files, directories and symlinks. */
  entries: number;
  mediaType: string;
}

/** Compressed bytes in flight between the compressor and the file. */
const OUTPUT_BYTES = 1 << 20;

/** Tar chunks handed to the compressor and not yet consumed by it. */
const CHUNKS_IN_FLIGHT = 3;

/** Streams the tar of `entries` through the compressor and the digest into `file`; returns the tar size. */
async function writeBundle(
  entries: SourceEntry[],
  plan: BundlePlan,
  file: string,
  tap: DigestTap,
  onProgress: ((bytesIn: number) => void) | undefined,
): Promise<number> {
  const pool = new BufferPool(poolSizeFor(defaultLimits));
  const compress = compressor(plan);
  const writing = pipeline(compress, tap, createWriteStream(file, { flags: "wx", highWaterMark: OUTPUT_BYTES }));
  let bytesIn = 0;
  function* counted(): Generator<Buffer> {
    for (const chunk of tarChunks(entries, pool)) {
      bytesIn += chunk.length;
      yield chunk;
      onProgress?.(bytesIn);
    }
  }
  const feeding = pump(counted(), compress, (chunk) => pool.release(chunk), CHUNKS_IN_FLIGHT).then(
    () => compress.end(),
    (error: unknown) => compress.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  await Promise.all([feeding, writing]);
  return bytesIn;
}

/**
 * Writes `sourceDir` as a deterministic tar, compressed with zstd or xz, to `output`: the same tree
 * gives the same bytes whatever its timestamps, owners, umask or directory order. The file appears
 * only when complete; its sha256 is computed as it is written.
 */
export async function createBundle(options: CreateBundleOptions): Promise<BundleResult> {
  const plan = planBundle(options);
  const entries = walkTree(options.sourceDir, plan.mtime);
  const tap = new DigestTap(OUTPUT_BYTES);
  const uncompressedSize = await writeAtomically(options.output, "bundle", (temp) =>
    writeBundle(entries, plan, temp, tap, options.onProgress),
  );
  return {
    digest: tap.digest(),
    size: tap.bytes,
    uncompressedSize,
    entries: entries.length,
    mediaType: plan.mediaType,
  };
}
