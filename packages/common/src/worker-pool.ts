import type { Worker } from "node:worker_threads";
import { describeError, isPkgError, PkgError } from "./errors.js";
import { ExitCode } from "./exit-codes.js";

/** Loaded when a pool starts or serves: every bin imports this module, few start a worker. */
const workerThreads = () => process.getBuiltinModule("node:worker_threads");

/** What a pool worker answers to one request: its result, or the one-line error it failed with. */
type WorkerReply<Result> =
  | { ok: true; result: Result }
  | { ok: false; exitCode: ExitCode; message: string; detail: string | undefined };

/** How one job of a pool is named and stopped. */
export interface WorkerJob<Request> {
  request: Request;
  signal?: AbortSignal;
  /**
   * Starts the message of a job that did not complete, e.g. `out.tar.zst: bundle not written`:
   * `<failure>: cancelled` (detail `cancelled`) when its signal stopped it, `<failure>: <how>`
   * when its worker died.
   */
  failure: string;
  /** Removes what a worker terminated mid-job was writing, which it cannot do itself. */
  cleanUp?: () => Promise<void>;
}

const cancelled = (job: WorkerJob<unknown>) =>
  new PkgError(ExitCode.Failed, `${job.failure}: cancelled`, { detail: "cancelled" });

/** Jobs run on worker threads, so that heavy work never holds up the caller's event loop. */
export interface WorkerPool<Request, Result> {
  /**
   * Runs one job on a free worker (waiting for one when all are busy). When its signal aborts, a
   * waiting job never starts, and a running one's worker is terminated and `cleanUp` run; either
   * rejects with a PkgError detailed `cancelled`.
   */
  run(job: WorkerJob<Request>): Promise<Result>;
  /** Terminates every worker; jobs still waiting reject. */
  close(): Promise<void>;
}

/**
 * A pool of at most `size` workers made by `start`, each serving requests with `serveRequests`.
 * Workers start when first needed and are kept for later jobs; idle ones do not keep the process alive.
 */
export function createWorkerPool<Request, Result>(
  size: number,
  start: () => Worker,
  what: string,
): WorkerPool<Request, Result> {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`${what} pool size ${size} is not >= 1`);
  const idle: Worker[] = [];
  const busy = new Set<Worker>();
  const waiting: Array<{ grant: (worker: Worker) => void; refuse: (error: Error) => void }> = [];
  let closed = false;

  const spawn = () => {
    const worker = start();
    // a worker that dies while idle leaves the pool; one that dies while busy fails its job
    worker
      .on("error", () => {})
      .on("exit", () => {
        const at = idle.indexOf(worker);
        if (at >= 0) idle.splice(at, 1);
      });
    return worker;
  };
  const live = () => idle.length + busy.size;

  /** A worker for `job`, counted busy at once, so that jobs asked for in one turn never exceed `size`. */
  function acquire(job: WorkerJob<Request>): Promise<Worker> {
    if (closed) return Promise.reject(cancelled(job));
    const worker = idle.pop() ?? (live() < size ? spawn() : undefined);
    if (worker) {
      busy.add(worker);
      return Promise.resolve(worker);
    }
    const { signal } = job;
    return new Promise((resolve, reject) => {
      const entry = {
        grant: (granted: Worker) => {
          signal?.removeEventListener("abort", onAbort);
          busy.add(granted);
          resolve(granted);
        },
        refuse: reject,
      };
      const onAbort = () => {
        waiting.splice(waiting.indexOf(entry), 1);
        reject(cancelled(job));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      waiting.push(entry);
    });
  }

  /** Hands a worker that finished (or the place of one that was terminated) to the next job. */
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

  async function run(job: WorkerJob<Request>): Promise<Result> {
    const { signal } = job;
    if (signal?.aborted) throw cancelled(job);
    const worker = await acquire(job);
    worker.ref();
    return new Promise<Result>((resolve, reject) => {
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
          .then(() => job.cleanUp?.())
          .finally(() => settle(false, () => reject(error)));
      };
      const onMessage = (reply: WorkerReply<Result>) => {
        if (settled) return;
        settled = true;
        settle(true, () =>
          reply.ok
            ? resolve(reply.result)
            : reject(new PkgError(reply.exitCode, reply.message, { detail: reply.detail })),
        );
      };
      const broken = (how: string) => new PkgError(ExitCode.Failed, `${job.failure}: ${how}`);
      const onError = (error: Error) => stop(broken(`internal error: ${error.message}`));
      const onExit = (code: number) => stop(broken(`the ${what} worker exited with code ${code}`));
      const onAbort = () => stop(cancelled(job));
      worker.on("message", onMessage).on("error", onError).on("exit", onExit);
      signal?.addEventListener("abort", onAbort, { once: true });
      worker.postMessage(job.request);
    });
  }

  async function close(): Promise<void> {
    closed = true;
    for (const entry of waiting.splice(0))
      entry.refuse(new PkgError(ExitCode.Failed, `the ${what} pool is closed`));
    const all = [...idle.splice(0), ...busy];
    await Promise.all(all.map((worker) => worker.terminate()));
  }

  return { run, close };
}

/** The body of a pool worker's entry module: answers every request with `handle`'s result or error. */
export function serveRequests<Request, Result>(handle: (request: Request) => Promise<Result>): void {
  const port = workerThreads().parentPort;
  if (!port) throw new Error("a pool worker's entry runs as a worker thread only");
  port.on("message", (request: Request) => {
    handle(request).then(
      (result) => port.postMessage({ ok: true, result } satisfies WorkerReply<Result>),
      (error: unknown) => {
        const { exitCode, line } = describeError(error);
        const detail = isPkgError(error) ? error.detail : undefined;
        port.postMessage({ ok: false, exitCode, message: line, detail } satisfies WorkerReply<Result>);
      },
    );
  });
}

/**
 * Pool workers allocate mostly buffers, whose small JS handles die young while the memory behind
 * them waits for a collection: a young generation far smaller than V8's default collects them, and
 * releases that memory, much sooner. On the sync benchmark this takes about 30 MB off the
 * process's peak RSS at no measurable CPU cost.
 */
const POOL_WORKER_LIMITS = { maxYoungGenerationSizeMb: 2 };

/**
 * Starts a worker on the entry module `builtEntry` (relative to the calling module `callerUrl`).
 * A caller running from its TypeScript sources (tests) names the built module as `distEntry`, since a
 * worker cannot load .ts; it runs without the parent's flags (`--conditions=source` would lead its
 * imports back to .ts).
 */
export function startEntryWorker(callerUrl: string, builtEntry: string, distEntry: string): Worker {
  const fromSources = callerUrl.endsWith(".ts");
  return new (workerThreads().Worker)(new URL(fromSources ? distEntry : builtEntry, callerUrl), {
    resourceLimits: POOL_WORKER_LIMITS,
    ...(fromSources ? { execArgv: [] } : {}),
  });
}
