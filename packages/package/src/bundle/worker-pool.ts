import { Worker } from "node:worker_threads";
import { ExitCode, PkgError } from "@pkg/common";
import { removeTempFilesBeside } from "./atomic-output.js";
import type { BundleResult } from "./create.js";
import { type CreateBundleOptions, planBundle } from "./options.js";
import type { WorkerReply } from "./worker-protocol.js";

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

const fromSources = import.meta.url.endsWith(".ts");

/**
 * From the TypeScript sources (tests) the thread runs the built module, since a worker cannot load
 * .ts, without the parent's flags (`--conditions=source` would lead its imports back to .ts).
 */
function startWorker(): Worker {
  if (fromSources)
    return new Worker(new URL("../../dist/bundle/bundle-worker.js", import.meta.url), { execArgv: [] });
  return new Worker(new URL("./bundle-worker.js", import.meta.url));
}

const cancelled = (output: string) =>
  new PkgError(ExitCode.Failed, `${output}: bundle not written: cancelled`, { detail: "cancelled" });

/**
 * A pool of at most `size` worker threads, started when first needed and kept for later bundles.
 * Idle workers do not keep the process alive.
 */
export function createBundlePool(size: number): BundlePool {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`bundle pool size ${size} is not >= 1`);
  const idle: Worker[] = [];
  const busy = new Set<Worker>();
  const waiting: Array<{ grant: (worker: Worker) => void; refuse: (error: Error) => void }> = [];
  let closed = false;

  const spawn = () => {
    const worker = startWorker();
    // a worker that dies while idle leaves the pool; one that dies while busy fails its call
    worker
      .on("error", () => {})
      .on("exit", () => {
        const at = idle.indexOf(worker);
        if (at >= 0) idle.splice(at, 1);
      });
    return worker;
  };
  const live = () => idle.length + busy.size;

  function acquire(output: string, signal: AbortSignal | undefined): Promise<Worker> {
    if (closed) return Promise.reject(cancelled(output));
    const worker = idle.pop() ?? (live() < size ? spawn() : undefined);
    if (worker) return Promise.resolve(worker);
    return new Promise((resolve, reject) => {
      const entry = {
        grant: (granted: Worker) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(granted);
        },
        refuse: reject,
      };
      const onAbort = () => {
        waiting.splice(waiting.indexOf(entry), 1);
        reject(cancelled(output));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      waiting.push(entry);
    });
  }

  /** Hands a worker that finished (or the place of one that was terminated) to the next caller. */
  function release(worker: Worker, healthy: boolean): void {
    busy.delete(worker);
    if (closed) {
      void worker.terminate();
      return;
    }
    const next = waiting.shift();
    if (next) {
      next.grant(healthy ? worker : spawn());
      return;
    }
    if (!healthy) return;
    worker.unref();
    idle.push(worker);
  }

  async function create(
    options: Omit<CreateBundleOptions, "onProgress">,
    signal?: AbortSignal,
  ): Promise<BundleResult> {
    // checked here, so that option errors are thrown before a worker is taken; the worker gets the
    // caller's SOURCE_DATE_EPOCH, not its own copy of the environment
    const { mtime } = planBundle(options);
    if (signal?.aborted) throw cancelled(options.output);
    const worker = await acquire(options.output, signal);
    busy.add(worker);
    worker.ref();
    return new Promise<BundleResult>((resolve, reject) => {
      let settled = false;
      const settle = (healthy: boolean, outcome: () => void) => {
        worker.off("message", onMessage).off("error", onError).off("exit", onExit);
        signal?.removeEventListener("abort", onAbort);
        release(worker, healthy);
        outcome();
      };
      /** Stops the worker for good, removes what it was writing, then rejects. */
      const stop = (error: PkgError) => {
        if (settled) return;
        settled = true;
        void worker
          .terminate()
          .then(() => removeTempFilesBeside(options.output))
          .finally(() => settle(false, () => reject(error)));
      };
      const onMessage = (reply: WorkerReply) => {
        if (settled) return;
        settled = true;
        settle(true, () =>
          reply.ok
            ? resolve(reply.result)
            : reject(new PkgError(reply.exitCode, reply.message, { detail: reply.detail })),
        );
      };
      const broken = (reason: string) =>
        new PkgError(ExitCode.Failed, `${options.output}: bundle not written: ${reason}`);
      const onError = (error: Error) => stop(broken(`internal error: ${error.message}`));
      const onExit = (code: number) => stop(broken(`the bundle worker exited with code ${code}`));
      const onAbort = () => stop(cancelled(options.output));
      worker.on("message", onMessage).on("error", onError).on("exit", onExit);
      signal?.addEventListener("abort", onAbort, { once: true });
      worker.postMessage({ ...options, mtime });
    });
  }

  async function close(): Promise<void> {
    closed = true;
    for (const entry of waiting.splice(0))
      entry.refuse(new PkgError(ExitCode.Failed, "the bundle pool is closed"));
    const all = [...idle.splice(0), ...busy];
    await Promise.all(all.map((worker) => worker.terminate()));
  }

  return { create, close };
}
