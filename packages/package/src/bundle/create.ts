import { setImmediate as nextTurn } from "node:timers/promises";
import { writeAtomically } from "@pkg/common";
import { createEncoder } from "./codecs.js";
import { sidecarPath, writeDigestSidecar } from "./digest-sidecar.js";
import { HashedFile } from "./hashed-file.js";
import { type BundlePlan, type CreateBundleOptions, planBundle } from "./options.js";
import { tarChunks } from "./tar-producer.js";
import { checkSourceDirectory, type SourceEntry, walkTree } from "./walk.js";

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

interface Written {
  digest: string;
  size: number;
  uncompressedSize: number;
  entries: number;
}

/**
 * Reads, compresses, hashes and writes one chunk at a time: each stage is done with a chunk before
 * the next is read, so memory is one chunk plus the compressor's own, and nothing is copied twice.
 */
async function writeBundle(
  entries: Iterable<SourceEntry>,
  plan: BundlePlan,
  path: string,
  onProgress: ((bytesIn: number) => void) | undefined,
): Promise<Written> {
  let count = 0;
  function* counted(): Generator<SourceEntry> {
    for (const entry of entries) {
      count++;
      yield entry;
    }
  }
  const file = new HashedFile(path);
  const encoder = createEncoder(plan, (output) => file.write(output));
  try {
    let bytesIn = 0;
    for (const chunk of tarChunks(counted())) {
      await encoder.write(chunk);
      bytesIn += chunk.length;
      onProgress?.(bytesIn);
      // zstd works synchronously: a turn of the event loop between chunks keeps timers and signals alive
      await nextTurn();
    }
    await encoder.end();
    return { digest: file.digest(), size: file.bytes, uncompressedSize: bytesIn, entries: count };
  } catch (error) {
    encoder.abort();
    throw error;
  } finally {
    file.close();
  }
}

/**
 * Writes `sourceDir` as a deterministic tar, compressed with zstd or xz, to `output`: the same tree
 * gives the same bytes whatever its timestamps, owners, umask or directory order. The file appears
 * only when complete; its sha256 is computed as it is written. When `output` is inside `sourceDir`
 * it is left out of the bundle, as are its temporary file and an earlier bundle of the same name.
 * Its digest is written beside it as `<output>.digest.json` (see digest-sidecar.ts).
 */
export async function createBundle(options: CreateBundleOptions): Promise<BundleResult> {
  const plan = planBundle(options);
  checkSourceDirectory(options.sourceDir);
  // a bundle written inside its own source tree must not end up in itself
  const written = await writeAtomically(options.output, "bundle", (temp) =>
    writeBundle(
      walkTree(options.sourceDir, plan.mtime, [options.output, temp, sidecarPath(options.output)]),
      plan,
      temp,
      options.onProgress,
    ),
  );
  await writeDigestSidecar(options.output, written.digest);
  return { ...written, mediaType: plan.mediaType };
}
