import { createWorkerPool, removeTempFilesBeside, startEntryWorker } from "@pkg/common";
import type { UnpackOptions, UnpackResult } from "./unpack.js";

/** One `unpackAsset` call, as a worker thread receives it. */
export interface UnpackRequest {
  file: string;
  destDir: string;
  options: UnpackOptions;
}

/**
 * `unpackAsset` run on worker threads: decompressing and writing the tree then neither waits on
 * nor holds up the caller's event loop, and the garbage of a few gigabytes of decompressed chunks
 * is collected on the worker's small heap.
 */
export interface UnpackPool {
  /**
   * Unpacks exactly as `unpackAsset` does, on a free worker (waiting for one when all are busy).
   * When `signal` aborts, a waiting call never starts, and a running one's worker is terminated
   * and its half-built tree removed; either rejects with a PkgError detailed `cancelled`.
   */
  unpack(file: string, destDir: string, options: UnpackOptions, signal?: AbortSignal): Promise<UnpackResult>;
  /** Terminates every worker; calls still waiting reject. */
  close(): Promise<void>;
}

/** A pool of at most `size` unpack worker threads, started when first needed and kept for later assets. */
export function createUnpackPool(size: number): UnpackPool {
  const pool = createWorkerPool<UnpackRequest, UnpackResult>(
    size,
    () =>
      startEntryWorker(import.meta.url, "./unpack-worker.js", "../../../dist/build/unpack/unpack-worker.js"),
    "unpack",
  );
  return {
    unpack(file, destDir, options, signal) {
      return pool.run({
        request: { file, destDir, options },
        signal,
        failure: `${options.assetName ?? file}: not unpacked`,
        cleanUp: () => removeTempFilesBeside(destDir),
      });
    },
    close: () => pool.close(),
  };
}
