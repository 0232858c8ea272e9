import { createWorkerPool, removeTempFilesBeside, startEntryWorker } from "@pkg/common";
import type { BundleResult } from "./create.js";
import { type CreateBundleOptions, planBundle } from "./options.js";
import type { WorkerBundleOptions } from "./worker-protocol.js";

/** `createBundle` run on worker threads, so that compressing never holds up the caller's event loop. */
export interface BundlePool {
  /**
   * Writes a bundle exactly as `createBundle` does, on a free worker (waiting for one when all are
   * busy). When `signal` aborts, a waiting call never starts, and a running one's worker is
   * terminated and its temporary files removed; either rejects with a PkgError detailed `cancelled`.
   */
  create(options: Omit<CreateBundleOptions, "onProgress">, signal?: AbortSignal): Promise<BundleResult>;
  /** Terminates every worker; calls still waiting reject. */
  close(): Promise<void>;
}

/**
 * A pool of at most `size` bundle worker threads, started when first needed and kept for later
 * bundles. Idle workers do not keep the process alive.
 */
export function createBundlePool(size: number): BundlePool {
  const pool = createWorkerPool<WorkerBundleOptions, BundleResult>(
    size,
    () => startEntryWorker(import.meta.url, "./bundle-worker.js", "../../dist/bundle/bundle-worker.js"),
    "bundle",
  );
  return {
    create(options, signal) {
      // checked here, so that option errors are thrown before a worker is taken; the worker gets the
      // caller's SOURCE_DATE_EPOCH, not its own copy of the environment
      const { mtime } = planBundle(options);
      return pool.run({
        request: { ...options, mtime },
        signal,
        failure: `${options.output}: bundle not written`,
        cleanUp: () => removeTempFilesBeside(options.output),
      });
    },
    close: () => pool.close(),
  };
}
