import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { describeError, ExitCode, type Logger, PkgError } from "@pkg/common";
import type { Target } from "@pkg/oci";
import { createBundlePool } from "@pkg/package/bundle";
import pLimit from "p-limit";
import {
  type BuildPairDeps,
  type BuiltPair,
  buildPair,
  removeTaskDirectory,
  type Slot,
  taskDirectory,
} from "../build/build-pair.js";
import { createDownloader } from "../build/fetch/downloader.js";
import { Semaphore } from "../build/semaphore.js";
import { createUnpackPool } from "../build/unpack/unpack-pool.js";
import type { HttpClient } from "../http/types.js";
import { type PairJob, planJobs, type VersionJob } from "../plan/jobs.js";
import { planRun, type RunnableSpec } from "../plan/plan-run.js";
import { publishVersion, type VersionPlatform } from "../publish/index.js";
import { observeIndexes } from "../publish/index-observer.js";
import { updatePublishedSummary } from "../publish/published-summary.js";
import { type Concurrency, defaultConcurrency } from "../spec/concurrency.js";
import type { LoadedSpec } from "../spec/loader.js";
import { DEFAULT_VERIFY } from "../spec/verify.js";
import {
  countPairs,
  noReuse,
  type SyncPairResult,
  type SyncReport,
  type SyncVersionResult,
} from "./sync-report.js";

export interface SyncOptions {
  workDir: string;
  dryRun?: boolean;
  version?: string;
  latest?: boolean;
  /** Stop starting new work, and pushing, after the first failed pair. */
  failFast?: boolean;
  /** Where to publish (a registry repository or an OCI layout). */
  target: Target;
  /** Ignore the published summary and read every version's index. */
  verifyPublished?: boolean;
  env: NodeJS.ProcessEnv;
  log: Logger;
  http: HttpClient;
  /** The build time primary tags carry (default: when the run starts). */
  now?: Date;
  /** Injected by tests: the wait between push attempts. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * Aborted on SIGINT/SIGTERM (its reason names the signal): no step starts after it, running
   * downloads and bundles are cut off and their partial files removed, and the version being
   * tagged is finished; no version is pushed after it.
   */
  signal?: AbortSignal;
}

/** Threads per bundle task: `compression_threads` when set, else the cores split across `max_bundles`. */
export function compressionThreads(concurrency: Concurrency, cores: number): number {
  if (concurrency.compression_threads > 0) return concurrency.compression_threads;
  return Math.max(1, Math.floor(cores / concurrency.max_bundles));
}

type BuildOutcome = { ok: true; built: BuiltPair } | { ok: false; error: PkgError } | { ok: "cancelled" };

function asPkgError(error: unknown): PkgError {
  if (error instanceof PkgError) return error;
  const { exitCode, line } = describeError(error);
  return new PkgError(exitCode, line, { cause: error });
}

const skippedPair = (platform: string, reason: string): SyncPairResult => ({
  platform,
  status: "skipped",
  reason,
  tags_written: [],
  blobs: noReuse(),
  attempts: 0,
  reused_download: false,
  reused_bundle: false,
});

const failedPair = (platform: string, error: { exitCode: ExitCode; message: string }): SyncPairResult => ({
  ...skippedPair(platform, ""),
  status: "failed",
  reason: undefined,
  error: { exit_code: error.exitCode, message: error.message },
});

/**
 * `package sync`: plans exactly as `check` does, builds every outstanding pair (downloads within
 * `max_downloads`, bundles within `max_bundles`), then pushes one version at a time, oldest first.
 * A failed pair publishes nothing for itself and withholds its version's rolling tags; the others
 * go on unless `failFast`. A pushed pair's work directory is removed; anything else stays for the
 * next run to reuse.
 */
export async function runSync(loaded: LoadedSpec, options: SyncOptions): Promise<SyncReport> {
  const { log } = options;
  const now = options.now ?? new Date();
  const observer = observeIndexes(options.target);
  const run = await planRun(loaded, { ...options, target: observer.target });
  const { spec } = run;
  const jobs = planJobs(run, now);
  const report = (versions: SyncVersionResult[]): SyncReport => ({
    name: jobs.name,
    target: jobs.target,
    dry_run: options.dryRun === true,
    versions,
    counts: countPairs(versions),
    ...(options.signal?.aborted ? { interrupted: String(options.signal.reason) } : {}),
  });
  if (options.dryRun) return report(jobs.versions.map(dryRunGroup));

  const results = await buildAndPublish(jobs.versions, {
    ...options,
    spec,
    specDir: loaded.specDir,
    target: run.target,
  });
  await updatePublishedSummary(options.target, observer, log);
  return report(results);
}

interface RunContext extends SyncOptions {
  spec: RunnableSpec;
  specDir: string;
}

function slot(size: number): Slot {
  const limit = pLimit(size);
  return (work) => limit(work);
}

/**
 * Builds every task of the plan (downloads within `max_downloads`; unpacking and bundling, on
 * worker threads, each within `max_bundles`) and pushes version after version, oldest first, as
 * their builds complete, while later pairs go on building. With `failFast` the first failure
 * aborts the run's signal: queued steps never start, running downloads and bundles are cut off,
 * and no version is pushed after it (a version whose push has begun is completed, so that no
 * version is left half tagged).
 */
async function buildAndPublish(
  versions: readonly VersionJob[],
  context: RunContext,
): Promise<SyncVersionResult[]> {
  const { spec, log } = context;
  const concurrency = spec.concurrency ?? defaultConcurrency();
  const workDir = resolve(context.workDir);
  const stop = new AbortController();
  const failed = () => {
    if (context.failFast) stop.abort();
  };
  const interrupt = () => stop.abort();
  if (context.signal?.aborted) interrupt();
  context.signal?.addEventListener("abort", interrupt, { once: true });
  const stoppedBy = () =>
    context.signal?.aborted
      ? `interrupted by ${String(context.signal.reason)}`
      : "--fail-fast stopped the run";
  const bundles = createBundlePool(concurrency.max_bundles);
  const unpacks = createUnpackPool(concurrency.max_bundles);
  const deps: BuildPairDeps = {
    spec,
    specDir: context.specDir,
    targetName: context.target.displayName,
    downloader: createDownloader({
      http: context.http,
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
    signal: stop.signal,
  };
  const dirOf = (task: PairJob) => taskDirectory(workDir, spec.name, task);
  const build = async (task: PairJob): Promise<BuildOutcome> => {
    if (stop.signal.aborted) return { ok: "cancelled" };
    try {
      return { ok: true, built: await buildPair(task, dirOf(task), deps) };
    } catch (error) {
      // once the run has stopped, a failure is the stop cutting the pair off
      if (stop.signal.aborted) return { ok: "cancelled" };
      const failure = asPkgError(error);
      log.warn(`${task.version} ${task.column}: ${failure.message}`);
      failed();
      return { ok: false, error: failure };
    }
  };
  // every build starts now, oldest version first; the pools bound how many run at once
  const builds = new Map(versions.flatMap((g) => g.pairs).map((task) => [task, build(task)]));
  if (versions.some((g) => g.refused.length > 0)) failed();
  try {
    const results: SyncVersionResult[] = [];
    for (const group of versions) {
      const outcomes = await Promise.all(
        group.pairs.map(async (task) => ({
          task,
          outcome: await (builds.get(task) as Promise<BuildOutcome>),
        })),
      );
      if (stop.signal.aborted && (group.pairs.length > 0 || group.refused.length > 0 || group.retag)) {
        results.push(stoppedGroup(group, outcomes, stoppedBy()));
        continue;
      }
      results.push(await publishGroup(group, outcomes, context, dirOf));
      if (results.at(-1)?.platforms.some((p) => p.status === "failed")) failed();
    }
    return results;
  } finally {
    context.signal?.removeEventListener("abort", interrupt);
    // after an unexpected error, nothing may go on building in the background
    stop.abort();
    await Promise.allSettled(builds.values());
    await Promise.all([bundles.close(), unpacks.close()]);
  }
}

function groupVariant(group: VersionJob): { variant?: string } {
  return group.variant === undefined ? {} : { variant: group.variant };
}

const OWED_TAGS = "published; its version's exact and rolling tags are owed";

function dryRunGroup(group: VersionJob): SyncVersionResult {
  const planned = (platform: string, reason: string) => ({
    ...skippedPair(platform, reason),
    status: "planned" as const,
  });
  return unpublishedGroup(group, [
    ...group.pairs.map((t) => planned(t.platform, `asset ${t.asset.name}`)),
    ...(group.retag ? group.carried.map((platform) => planned(platform, OWED_TAGS)) : []),
  ]);
}

type Outcomes = Array<{ task: PairJob; outcome: BuildOutcome }>;

/** A group reached after the run stopped (`--fail-fast`, a signal): its failures reported, the rest skipped. */
function stoppedGroup(group: VersionJob, outcomes: Outcomes, why: string): SyncVersionResult {
  return unpublishedGroup(
    group,
    outcomes.map(({ task, outcome }) =>
      outcome.ok === false
        ? failedPair(task.platform, outcome.error)
        : skippedPair(task.platform, `not pushed: ${why}`),
    ),
  );
}

/** A version nothing was pushed for: the given pairs, then its refused and skipped ones. */
function unpublishedGroup(group: VersionJob, pairs: SyncVersionResult["platforms"]): SyncVersionResult {
  return {
    version: group.version,
    ...groupVariant(group),
    cascade_tags_written: [],
    layer_reuse: noReuse(),
    platforms: [
      ...pairs,
      ...group.refused.map((r) => failedPair(r.platform, { exitCode: ExitCode.Failed, message: r.message })),
      ...group.skipped.map((s) => skippedPair(s.platform, s.reason)),
      ...(group.retag && !pairs.some((p) => p.status === "planned")
        ? group.carried.map((platform) => skippedPair(platform, OWED_TAGS))
        : []),
    ],
  };
}

async function publishGroup(
  group: VersionJob,
  outcomes: Outcomes,
  options: SyncOptions & { spec: LoadedSpec["spec"] },
  dirOf: (task: PairJob) => string,
): Promise<SyncVersionResult> {
  const entries: VersionPlatform[] = [
    ...outcomes.map(({ task, outcome }): VersionPlatform => {
      const { platform } = task;
      if (outcome.ok === true)
        return { platform, layers: [outcome.built.bundle], metadata: outcome.built.metadata };
      const failure =
        outcome.ok === false
          ? outcome.error
          : new PkgError(ExitCode.Failed, "not built: --fail-fast stopped the run");
      return { platform, failure };
    }),
    ...group.refused.map((r) => ({
      platform: r.platform,
      failure: new PkgError(ExitCode.Failed, r.message),
    })),
  ];
  if (entries.length === 0 && !group.retag) return unpublishedGroup(group, []);
  const primaryTag = group.primary_tag;
  if (primaryTag === undefined)
    throw new PkgError(ExitCode.Data, `the plan gives version ${group.version} no primary tag`);
  const variant = groupVariant(group);
  const published = await publishVersion({
    target: options.target,
    version: group.version,
    platforms: entries,
    carried: group.carried,
    ...variant,
    spec: options.spec,
    primaryTag,
    env: options.env,
    ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
    log: options.log,
  });
  const platforms: SyncPairResult[] = [];
  for (const [i, result] of published.platforms.entries()) {
    const source = outcomes[i];
    const built = source?.outcome.ok === true ? source.outcome.built : undefined;
    if (result.status === "pushed" && source) await removeTaskDirectory(dirOf(source.task));
    platforms.push({
      platform: result.platform,
      status: result.status === "pushed" ? "published" : "failed",
      tags_written: result.tags_written,
      blobs: result.layer_reuse,
      attempts: result.attempts,
      reused_download: built?.reusedDownload ?? false,
      reused_bundle: built?.reusedBundle ?? false,
      ...(result.error === undefined ? {} : { error: result.error }),
    });
  }
  const retagged = new Map(published.retagged.map((r) => [r.platform, r.tags_written]));
  const leftAlone = group.skipped.filter((s) => !retagged.has(s.platform));
  for (const platform of group.carried) {
    const tags = retagged.get(platform);
    if (tags !== undefined) platforms.push(retaggedPair(platform, tags));
    else if (group.retag) platforms.push(retagFailure(platform, published.error));
  }
  const wroteAny = platforms.some((p) => p.status === "published" || p.status === "retagged");
  return {
    version: group.version,
    ...variant,
    ...(wroteAny ? { primary_tag: published.primary_tag } : {}),
    cascade_tags_written: published.cascade_tags_written,
    layer_reuse: noReuse(),
    platforms: [...platforms, ...leftAlone.map((s) => skippedPair(s.platform, s.reason))],
  };
}

/** A pair an earlier run published, whose version's tags this run wrote. */
function retaggedPair(platform: string, tags: string[]): SyncPairResult {
  return {
    ...skippedPair(platform, "published earlier; tags completed"),
    status: "retagged",
    tags_written: tags,
  };
}

/** A pair of a version owing its tags whose tags could not be written. */
function retagFailure(
  platform: string,
  error: { exit_code: ExitCode; message: string } | undefined,
): SyncPairResult {
  const message =
    error?.message ?? "published earlier, but no longer in the repository; its tags are not written";
  return failedPair(platform, { exitCode: error?.exit_code ?? ExitCode.Failed, message });
}
