import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { describeError, ExitCode, type Logger, PkgError } from "@pkg/common";
import type { HttpClient } from "@pkg/net";
import { createBundlePool } from "@pkg/package/bundle";
import pLimit from "p-limit";
import {
  type BuildPairDeps,
  type BuiltPair,
  buildPair,
  type Slot,
  taskDirectory,
} from "../build/build-pair.js";
import { createDownloader } from "../build/fetch/downloader.js";
import { Semaphore } from "../build/semaphore.js";
import { createUnpackPool } from "../build/unpack/unpack-pool.js";
import type { PairJob, VersionJob } from "../plan/jobs.js";
import type { RunnableSpec } from "../plan/plan-run.js";
import { type Concurrency, defaultConcurrency } from "../spec/concurrency.js";
import { DEFAULT_VERIFY } from "../spec/verify.js";

export interface PrepareOptions {
  spec: RunnableSpec;
  specDir: string;
  /** Where each pair's download and bundle are kept, `<work-dir>/<name>/<version>/<platform slug>`. */
  workDir: string;
  /** The target as users see it, for messages. */
  targetName: string;
  http: HttpClient;
  log: Logger;
  /** Aborted to stop: no step starts after it, running downloads and bundles are cut off. */
  signal: AbortSignal;
  /** Called as a pair fails (sync's `--fail-fast` stops the run). */
  onFailure?: () => void;
}

/** What became of one pair: built, failed (this pair only), or cut off by the stop. */
export type PairOutcome =
  | { ok: true; built: BuiltPair }
  | { ok: false; error: PkgError }
  | { ok: "cancelled" };

/** The builds of a preparation, all started: their outcomes as they complete. */
export interface Preparation {
  /** The outcome of one of the prepared pairs. */
  outcome(pair: PairJob): Promise<PairOutcome>;
  /** Waits for every build to settle, then stops the worker threads. */
  close(): Promise<void>;
}

/** Threads per bundle task: `compression_threads` when set, else the cores split across `max_bundles`. */
export function compressionThreads(concurrency: Concurrency, cores: number): number {
  if (concurrency.compression_threads > 0) return concurrency.compression_threads;
  return Math.max(1, Math.floor(cores / concurrency.max_bundles));
}

function asPkgError(error: unknown): PkgError {
  if (error instanceof PkgError) return error;
  const { exitCode, line } = describeError(error);
  return new PkgError(exitCode, line, { cause: error });
}

function slot(size: number): Slot {
  const limit = pLimit(size);
  return (work) => limit(work);
}

/**
 * The prepare step: starts building every pair of `versions` at once, in the order given (oldest
 * version first), into its work directory; the pools bound how many run at once (downloads
 * within `max_downloads`; unpacking and bundling, on worker threads, each within `max_bundles`).
 * A failed pair is logged and concerns that pair only.
 */
export function startPrepare(versions: readonly VersionJob[], options: PrepareOptions): Preparation {
  const { spec, log, signal } = options;
  const concurrency = spec.concurrency ?? defaultConcurrency();
  const workDir = resolve(options.workDir);
  const bundles = createBundlePool(concurrency.max_bundles);
  const unpacks = createUnpackPool(concurrency.max_bundles);
  const deps: BuildPairDeps = {
    spec,
    specDir: options.specDir,
    targetName: options.targetName,
    downloader: createDownloader({
      http: options.http,
      verify: spec.verify ?? DEFAULT_VERIFY,
      sourceType: spec.source.type,
      maxDownloads: concurrency.max_downloads,
      log,
    }),
    lookahead: new Semaphore(concurrency.max_downloads + 2 * concurrency.max_bundles),
    // an unpacked tree waits for its bundle worker while the next one unpacks, and no more
    pairSlot: slot(2 * concurrency.max_bundles),
    unpackSlot: slot(concurrency.max_bundles),
    unpacks,
    bundles,
    compressionThreads: compressionThreads(concurrency, availableParallelism()),
    log,
    signal,
  };
  const dirOf = (pair: PairJob) => taskDirectory(workDir, spec.name, pair);
  const build = async (pair: PairJob): Promise<PairOutcome> => {
    if (signal.aborted) return { ok: "cancelled" };
    try {
      return { ok: true, built: await buildPair(pair, dirOf(pair), deps) };
    } catch (error) {
      // once the run has stopped, a failure is the stop cutting the pair off
      if (signal.aborted) return { ok: "cancelled" };
      // the pair's task has said why it failed
      const failure = asPkgError(error);
      options.onFailure?.();
      return { ok: false, error: failure };
    }
  };
  const pairs = versions.flatMap((v) => v.pairs);
  log.tasks.expect(pairs.length);
  const builds = new Map(pairs.map((pair) => [dirOf(pair), build(pair)]));
  return {
    outcome: (pair) =>
      builds.get(dirOf(pair)) ??
      Promise.resolve({
        ok: false,
        error: new PkgError(ExitCode.Failed, `${pair.version} ${pair.column}: not prepared in this run`),
      }),
    close: async () => {
      await Promise.allSettled(builds.values());
      await Promise.all([bundles.close(), unpacks.close()]);
    },
  };
}
