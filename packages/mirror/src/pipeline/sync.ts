import type { Logger } from "@pkg/common";
import type { HttpClient } from "@pkg/net";
import type { Target } from "@pkg/oci";
import { planJobs, type RunJobs, type VersionJob } from "../plan/jobs.js";
import { planRun, type RunnableSpec } from "../plan/plan-run.js";
import { observeIndexes } from "../publish/index-observer.js";
import { updatePublishedSummary } from "../publish/published-summary.js";
import type { RunSigner } from "../publish/sign-published.js";
import type { LoadedSpec } from "../spec/loader.js";
import { startPrepare } from "./prepare.js";
import { pushVersions } from "./push.js";
import {
  countPairs,
  OWED_TAGS,
  type SyncReport,
  type SyncVersionResult,
  skippedPair,
  unpublishedVersion,
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
  /** Signs what is published; resolved from the spec's `sign` before the run starts. */
  signer?: RunSigner;
  /**
   * Aborted on SIGINT/SIGTERM (its reason names the signal): no step starts after it, running
   * downloads and bundles are cut off and their partial files removed, and the version being
   * tagged is finished; no version is pushed after it.
   */
  signal?: AbortSignal;
}

/**
 * `package sync`: plan, prepare and push in one process. Plans exactly as `check` does, builds
 * every outstanding pair (downloads within `max_downloads`, bundles within `max_bundles`), and
 * pushes one version at a time, oldest first. A failed pair publishes nothing for itself and
 * withholds its version's rolling tags; the others go on unless `failFast`. A pushed pair's work
 * directory is removed; anything else stays for the next run to reuse.
 */
export async function runSync(loaded: LoadedSpec, options: SyncOptions): Promise<SyncReport> {
  const now = options.now ?? new Date();
  const observer = observeIndexes(options.target);
  const run = await planRun(loaded, { ...options, target: observer.target });
  const jobs = planJobs(run, now);
  const report = (versions: SyncVersionResult[]): SyncReport => ({
    name: jobs.name,
    target: jobs.target,
    dry_run: options.dryRun === true,
    versions,
    counts: countPairs(versions),
    ...(options.signal?.aborted ? { interrupted: String(options.signal.reason) } : {}),
  });
  if (options.dryRun) return report(jobs.versions.map(dryRunVersion));

  const results = await syncJobs(jobs, {
    ...options,
    spec: run.spec,
    specDir: loaded.specDir,
    target: run.target,
  });
  await updatePublishedSummary(options.target, observer, options.log);
  return report(results);
}

export interface SyncContext extends SyncOptions {
  spec: RunnableSpec;
  specDir: string;
}

/**
 * Prepares and pushes a plan's versions in one process: every pair starts building at once,
 * oldest version first (the pools bound how many run), and version after version is pushed,
 * oldest first, as its builds complete, while later pairs go on building. With `failFast` the
 * first failure stops the run: queued steps never start, running downloads and bundles are cut
 * off, and no version is pushed after it (a version whose push has begun is completed, so that
 * no version is left half tagged). An aborted `signal` stops it the same way.
 */
export async function syncJobs(jobs: RunJobs, context: SyncContext): Promise<SyncVersionResult[]> {
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
  const preparation = startPrepare(jobs.versions, {
    spec: context.spec,
    specDir: context.specDir,
    workDir: context.workDir,
    targetName: context.target.displayName,
    http: context.http,
    log: context.log,
    signal: stop.signal,
    onFailure: failed,
  });
  if (jobs.versions.some((v) => v.refused.length > 0)) failed();
  try {
    return await pushVersions(jobs.versions, preparation.outcome, {
      ...context,
      signal: stop.signal,
      stoppedBy,
      onFailure: failed,
    });
  } finally {
    context.signal?.removeEventListener("abort", interrupt);
    // after an unexpected error, nothing may go on building in the background
    stop.abort();
    await preparation.close();
  }
}

function dryRunVersion(job: VersionJob): SyncVersionResult {
  const planned = (platform: string, reason: string) => ({
    ...skippedPair(platform, reason),
    status: "planned" as const,
  });
  return unpublishedVersion(job, [
    ...job.pairs.map((pair) => planned(pair.platform, `asset ${pair.asset.name}`)),
    ...(job.retag ? job.carried.map((platform) => planned(platform, OWED_TAGS)) : []),
  ]);
}
