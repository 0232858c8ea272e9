import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { describeError, ExitCode, type Logger, PkgError } from "@pkg/common";
import type { Target } from "@pkg/oci";
import pLimit from "p-limit";
import { createDownloader } from "../fetch/downloader.js";
import type { HttpClient } from "../http/types.js";
import { publishVersion, type VersionPlatform } from "../publish/index.js";
import { type Concurrency, defaultConcurrency } from "../spec/concurrency.js";
import type { LoadedSpec } from "../spec/loader.js";
import { DEFAULT_VERIFY } from "../spec/verify.js";
import { type BuiltPair, buildPair, removeTaskDirectory, taskDirectory } from "./build-pair.js";
import { planRun } from "./plan-run.js";
import {
  countPairs,
  noReuse,
  type SyncPairResult,
  type SyncReport,
  type SyncVersionResult,
} from "./sync-report.js";
import { planSync, type SyncTask, type VersionGroup } from "./sync-tasks.js";

export interface SyncOptions {
  workDir: string;
  dryRun?: boolean;
  version?: string;
  latest?: boolean;
  /** Stop starting new work, and pushing, after the first failed pair. */
  failFast?: boolean;
  /** Where to publish (a registry repository or an OCI layout). */
  target: Target;
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
  const run = await planRun(loaded, options);
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

  const concurrency = spec.concurrency ?? defaultConcurrency();
  const workDir = resolve(options.workDir);
  const downloader = createDownloader({
    http: options.http,
    verify: spec.verify ?? DEFAULT_VERIFY,
    sourceType: spec.source.type,
    maxDownloads: concurrency.max_downloads,
    log,
  });
  const bundleLimit = pLimit(concurrency.max_bundles);
  const deps = {
    spec,
    specDir: loaded.specDir,
    targetName: run.target.displayName,
    downloader,
    bundleSlot: <T>(work: () => Promise<T>) => bundleLimit(work),
    compressionThreads: compressionThreads(concurrency, availableParallelism()),
    log,
  };
  let stopped = false;
  const dirOf = (task: SyncTask) => taskDirectory(workDir, spec.name, task);
  const build = async (task: SyncTask): Promise<BuildOutcome> => {
    if (stopped) return { ok: "cancelled" };
    try {
      return { ok: true, built: await buildPair(task, dirOf(task), deps) };
    } catch (error) {
      const failure = asPkgError(error);
      log.warn(`${task.version.version} ${task.column.id}: ${failure.message}`);
      if (options.failFast) stopped = true;
      return { ok: false, error: failure };
    }
  };
  // every build starts now, oldest version first; the pools bound how many run at once
  const builds = new Map(plan.groups.flatMap((g) => g.tasks).map((task) => [task, build(task)]));
  if (options.failFast && plan.groups.some((g) => g.refused.length > 0)) stopped = true;

  const now = options.now ?? new Date();
  const results: SyncVersionResult[] = [];
  for (const group of plan.groups) {
    const outcomes = await Promise.all(
      group.tasks.map(async (task) => ({ task, outcome: await (builds.get(task) as Promise<BuildOutcome>) })),
    );
    if (stopped && (group.tasks.length > 0 || group.refused.length > 0)) {
      results.push(stoppedGroup(group, outcomes));
      continue;
    }
    results.push(await publishGroup(group, outcomes, { ...options, spec, now, target: run.target }, dirOf));
    if (options.failFast && results.at(-1)?.platforms.some((p) => p.status === "failed")) stopped = true;
  }
  return report(results);
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
  const skipped = group.skipped.map((s) => skippedPair(s.column.platform, s.reason));
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
  const variant = groupVariant(group);
  if (entries.length === 0) {
    return {
      version: group.version,
      ...variant,
      cascade_tags_written: [],
      layer_reuse: noReuse(),
      platforms: skipped,
    };
  }
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
