import { join, resolve } from "node:path";
import type { Logger } from "@pkg/common";
import type { HttpClient } from "@pkg/net";
import type { Target } from "@pkg/oci";
import { planJobs, type RunJobs, type VersionJob } from "../plan/jobs.js";
import { planRun, type RunnableSpec, type RunPlan } from "../plan/plan-run.js";
import { observeIndexes } from "../publish/index-observer.js";
import { updatePublishedSummary } from "../publish/published-summary.js";
import type { RunSigner } from "../publish/sign-published.js";
import { DEFAULT_WHEEL_SCOPE } from "../spec/defaults.js";
import type { LoadedSpec } from "../spec/loader.js";
import type { PlanVersion } from "./documents/plan-document.js";
import { buildPlanDocument } from "./plan/document.js";
import { withDerivedLocks } from "./plan/plan-pipeline.js";
import { startPrepare } from "./prepare.js";
import { startEnvPrepare } from "./prepare-env-pairs.js";
import { isEnvSpec } from "./prepare-step/prepare-env.js";
import { pushVersions } from "./push.js";
import { wheelRegistration } from "./push-step/wheel-layers.js";
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
  /** Another repository beside `target`: where a Python source's shared wheel layers go. */
  openRepository?: (repository: string) => Target;
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
    ...(isEnvSpec(run.spec) ? { envWork: await envWork(loaded, run, jobs, { ...options, now }) } : {}),
  });
  await updatePublishedSummary(options.target, observer, options.log);
  return report(results);
}

export interface SyncContext extends Omit<SyncOptions, "env"> {
  spec: RunnableSpec;
  specDir: string;
  env: NodeJS.ProcessEnv;
  /** A Python source's plan entries (locks derived), built as environment packages. */
  envWork?: EnvWork;
}

interface EnvWork {
  entries: PlanVersion[];
  repoRoot: string;
  planDir: string;
}

/** The plan entries of a Python source's versions to build, a `pypi` source's locks derived into
 *  the work directory's `locks/`. */
async function envWork(
  loaded: LoadedSpec,
  run: RunPlan,
  jobs: RunJobs,
  options: SyncOptions & { now: Date },
): Promise<EnvWork> {
  const planDir = resolve(options.workDir);
  const planned = buildPlanDocument(run, jobs, []).document.versions;
  const entries = await withDerivedLocks(run.spec, planned, {
    env: options.env,
    log: options.log,
    python: { locksDir: join(planDir, "locks"), planDir },
    now: options.now,
  });
  return { entries, repoRoot: loaded.repoRoot, planDir };
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
  const prepareOptions = {
    spec: context.spec,
    specDir: context.specDir,
    workDir: context.workDir,
    targetName: context.target.displayName,
    http: context.http,
    log: context.log,
    signal: stop.signal,
    onFailure: failed,
  };
  const preparation =
    context.envWork === undefined
      ? startPrepare(jobs.versions, prepareOptions)
      : startEnvPrepare({ ...prepareOptions, ...context.envWork, env: context.env });
  const wheels =
    context.openRepository === undefined
      ? undefined
      : wheelRegistration(
          context.spec.wheel_scope ?? DEFAULT_WHEEL_SCOPE,
          context.openRepository,
          context.log,
        );
  if (jobs.versions.some((v) => v.refused.length > 0)) failed();
  try {
    return await pushVersions(jobs.versions, preparation.outcome, {
      ...context,
      signal: stop.signal,
      stoppedBy,
      onFailure: failed,
      ...(wheels === undefined ? {} : { wheels }),
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
