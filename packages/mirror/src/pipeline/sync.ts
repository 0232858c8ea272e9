import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { describeError, ExitCode, type Logger, PkgError } from "@pkg/common";
import type { HttpClient } from "@pkg/net";
import type { Target } from "@pkg/oci";
import { createBundlePool } from "@pkg/package/bundle";
import pLimit from "p-limit";
import { createDownloader } from "../fetch/downloader.js";
import { publishVersion, type VersionPlatform } from "../publish/index.js";
import { observeIndexes } from "../publish/index-observer.js";
import { updatePublishedSummary } from "../publish/published-summary.js";
import { type Concurrency, defaultConcurrency } from "../spec/concurrency.js";
import type { LoadedSpec } from "../spec/loader.js";
import { DEFAULT_VERIFY } from "../spec/verify.js";
import { createUnpackPool } from "../unpack/unpack-pool.js";
import {
  type BuildPairDeps,
  type BuiltPair,
  buildPair,
  removeTaskDirectory,
  type Slot,
  taskDirectory,
} from "./build-pair.js";
import { planRun, type RunnableSpec } from "./plan-run.js";
import { Semaphore } from "./semaphore.js";
import {
  countPairs,
  noReuse,
  type SyncPairResult,
  type SyncReport,
  type SyncVersionResult,
} from "./sync-report.js";
import { planSync, type SyncPlan, type SyncTask, type VersionGroup } from "./sync-tasks.js";

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
  const observer = observeIndexes(options.target);
  const run = await planRun(loaded, { ...options, target: observer.target });
  const { spec } = run;
  const plan = planSync(run, spec.versions);
  const report = (versions: SyncVersionResult[]): SyncReport => ({
    name: spec.name,
    target: run.target.displayName,
    dry_run: options.dryRun === true,
    versions,
    counts: countPairs(versions),
  });
  if (options.dryRun) return report(plan.groups.map(dryRunGroup));

  const results = await buildAndPublish(plan, {
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
async function buildAndPublish(plan: SyncPlan, context: RunContext): Promise<SyncVersionResult[]> {
  const { spec, log } = context;
  const concurrency = spec.concurrency ?? defaultConcurrency();
  const workDir = resolve(context.workDir);
  const stop = new AbortController();
  const failed = () => {
    if (context.failFast) stop.abort();
  };
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
  const dirOf = (task: SyncTask) => taskDirectory(workDir, spec.name, task);
  const build = async (task: SyncTask): Promise<BuildOutcome> => {
    if (stop.signal.aborted) return { ok: "cancelled" };
    try {
      return { ok: true, built: await buildPair(task, dirOf(task), deps) };
    } catch (error) {
      // once the run has stopped, a failure is the stop cutting the pair off
      if (stop.signal.aborted) return { ok: "cancelled" };
      const failure = asPkgError(error);
      log.warn(`${task.version.version} ${task.column.id}: ${failure.message}`);
      failed();
      return { ok: false, error: failure };
    }
  };
  // every build starts now, oldest version first; the pools bound how many run at once
  const builds = new Map(plan.groups.flatMap((g) => g.tasks).map((task) => [task, build(task)]));
  if (plan.groups.some((g) => g.refused.length > 0)) failed();
  try {
    const now = context.now ?? new Date();
    const results: SyncVersionResult[] = [];
    for (const group of plan.groups) {
      const outcomes = await Promise.all(
        group.tasks.map(async (task) => ({
          task,
          outcome: await (builds.get(task) as Promise<BuildOutcome>),
        })),
      );
      if (stop.signal.aborted && (group.tasks.length > 0 || group.refused.length > 0)) {
        results.push(stoppedGroup(group, outcomes));
        continue;
      }
      results.push(await publishGroup(group, outcomes, { ...context, now }, dirOf));
      if (results.at(-1)?.platforms.some((p) => p.status === "failed")) failed();
    }
    return results;
  } finally {
    // after an unexpected error, nothing may go on building in the background
    stop.abort();
    await Promise.allSettled(builds.values());
    await Promise.all([bundles.close(), unpacks.close()]);
  }
}

function groupVariant(group: VersionGroup): { variant?: string } {
  const variant = group.columns[0]?.set.variant;
  return variant === undefined ? {} : { variant };
}

function dryRunGroup(group: VersionGroup): SyncVersionResult {
  return unpublishedGroup(
    group,
    group.tasks.map((t) => ({
      ...skippedPair(t.column.platform, `asset ${t.asset.name}`),
      status: "planned" as const,
    })),
  );
}

type Outcomes = Array<{ task: SyncTask; outcome: BuildOutcome }>;

/** A group reached after `--fail-fast` stopped the run: its failures reported, the rest skipped. */
function stoppedGroup(group: VersionGroup, outcomes: Outcomes): SyncVersionResult {
  return unpublishedGroup(
    group,
    outcomes.map(({ task, outcome }) =>
      outcome.ok === false
        ? failedPair(task.column.platform, outcome.error)
        : skippedPair(task.column.platform, "not pushed: --fail-fast stopped the run"),
    ),
  );
}

/** A version nothing was pushed for: the given pairs, then its refused and skipped ones. */
function unpublishedGroup(group: VersionGroup, pairs: SyncVersionResult["platforms"]): SyncVersionResult {
  return {
    version: group.version,
    ...groupVariant(group),
    cascade_tags_written: [],
    layer_reuse: noReuse(),
    platforms: [
      ...pairs,
      ...group.refused.map((r) =>
        failedPair(r.column.platform, { exitCode: ExitCode.Failed, message: r.message }),
      ),
      ...group.skipped.map((s) => skippedPair(s.column.platform, s.reason)),
    ],
  };
}

async function publishGroup(
  group: VersionGroup,
  outcomes: Outcomes,
  options: SyncOptions & { spec: LoadedSpec["spec"]; now: Date },
  dirOf: (task: SyncTask) => string,
): Promise<SyncVersionResult> {
  const entries: VersionPlatform[] = [
    ...outcomes.map(({ task, outcome }): VersionPlatform => {
      const platform = task.column.platform;
      if (outcome.ok === true)
        return { platform, bundle: outcome.built.bundle, metadata: outcome.built.metadata };
      const failure =
        outcome.ok === false
          ? outcome.error
          : new PkgError(ExitCode.Failed, "not built: --fail-fast stopped the run");
      return { platform, failure };
    }),
    ...group.refused.map((r) => ({
      platform: r.column.platform,
      failure: new PkgError(ExitCode.Failed, r.message),
    })),
  ];
  if (entries.length === 0) return unpublishedGroup(group, []);
  const variant = groupVariant(group);
  const skipped = group.skipped.map((s) => skippedPair(s.column.platform, s.reason));
  const published = await publishVersion({
    target: options.target,
    version: group.version,
    platforms: entries,
    ...variant,
    spec: options.spec,
    now: options.now,
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
  const pushedAny = platforms.some((p) => p.status === "published");
  return {
    version: group.version,
    ...variant,
    ...(pushedAny ? { primary_tag: published.primary_tag } : {}),
    cascade_tags_written: published.cascade_tags_written,
    layer_reuse: noReuse(),
    platforms: [...platforms, ...skipped],
  };
}
