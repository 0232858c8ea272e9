import { resolve } from "node:path";
import { ExitCode, type Logger, PkgError } from "@pkg/common";
import type { Target } from "@pkg/oci";
import { type BuiltPair, removeTaskDirectory, taskDirectory } from "../build/build-pair.js";
import type { PairJob, VersionJob } from "../plan/jobs.js";
import type { RunnableSpec } from "../plan/plan-run.js";
import { publishVersion, type RunSigner, type VersionPlatform } from "../publish/index.js";
import type { PlatformBundle } from "../publish/ready-platform.js";
import type { PairOutcome } from "./prepare.js";
import { registerWheelLayers, type WheelRegistration } from "./push-step/wheel-layers.js";
import {
  failedPair,
  type SyncPairResult,
  type SyncVersionResult,
  skippedPair,
  unpublishedVersion,
  wheelLayerReuse,
} from "./sync-report.js";

export interface PushOptions {
  spec: RunnableSpec;
  /** The work directory the pairs were prepared in: a pushed pair's directory is removed from it. */
  workDir: string;
  /** Where to publish (a registry repository or an OCI layout). */
  target: Target;
  /** The CI variables the annotations come from. */
  env: NodeJS.ProcessEnv;
  log: Logger;
  /** Injected by tests: the wait between push attempts. */
  sleep?: (ms: number) => Promise<void>;
  /** Aborted when the run stops: no version is pushed after it (one whose push has begun is completed). */
  signal: AbortSignal;
  /** Why the run stopped, for the pairs it leaves unpushed. */
  stoppedBy: () => string;
  /** Called when a version is pushed with a failed pair (sync's `--fail-fast` stops the run). */
  onFailure?: () => void;
  /** Signs what is published (the spec has `sign`). */
  signer?: RunSigner;
  /** Where an environment package's wheel layers are registered, to mount them from. */
  wheels?: WheelRegistration;
}

type Outcomes = Array<{ pair: PairJob; outcome: PairOutcome }>;

/**
 * The push step: publishes version after version in the order given (oldest first), each as
 * soon as its pairs' outcomes are known, while later pairs may still be preparing. A failed pair
 * publishes nothing for itself and withholds its version's rolling tags. Once `signal` is
 * aborted, the versions left are reported, not pushed.
 */
export async function pushVersions(
  versions: readonly VersionJob[],
  outcomeOf: (pair: PairJob) => Promise<PairOutcome>,
  options: PushOptions,
): Promise<SyncVersionResult[]> {
  const results: SyncVersionResult[] = [];
  for (const job of versions) {
    const outcomes = await Promise.all(
      job.pairs.map(async (pair) => ({ pair, outcome: await outcomeOf(pair) })),
    );
    if (options.signal.aborted && (job.pairs.length > 0 || job.refused.length > 0 || job.retag)) {
      results.push(stoppedVersion(job, outcomes, options.stoppedBy()));
      continue;
    }
    const result = await pushVersion(job, outcomes, options);
    results.push(result);
    if (result.platforms.some((p) => p.status === "failed")) options.onFailure?.();
  }
  return results;
}

/** A version reached after the run stopped (`--fail-fast`, a signal): its failures reported, the rest skipped. */
function stoppedVersion(job: VersionJob, outcomes: Outcomes, why: string): SyncVersionResult {
  return unpublishedVersion(
    job,
    outcomes.map(({ pair, outcome }) =>
      outcome.ok === false
        ? failedPair(pair.platform, outcome.error)
        : skippedPair(pair.platform, `not pushed: ${why}`),
    ),
  );
}

/**
 * One version through `publishVersion` under the primary tag its job carries: its built pairs,
 * its failed and refused ones (they withhold its rolling tags), and the platforms earlier runs
 * published; for a version owing its tags, those tags alone.
 */
async function pushVersion(
  job: VersionJob,
  outcomes: Outcomes,
  options: PushOptions,
): Promise<SyncVersionResult> {
  const entries: VersionPlatform[] = [];
  for (const { pair, outcome } of outcomes) {
    const { platform } = pair;
    if (outcome.ok === true) {
      entries.push({
        platform,
        layers: await layersOf(outcome.built, options),
        metadata: outcome.built.metadata,
      });
      continue;
    }
    const failure =
      outcome.ok === false
        ? outcome.error
        : new PkgError(ExitCode.Failed, "not built: --fail-fast stopped the run");
    entries.push({ platform, failure });
  }
  for (const r of job.refused)
    entries.push({ platform: r.platform, failure: new PkgError(ExitCode.Failed, r.message) });
  if (entries.length === 0 && !job.retag) return unpublishedVersion(job, []);
  const primaryTag = job.primary_tag;
  if (primaryTag === undefined)
    throw new PkgError(ExitCode.Data, `the plan gives version ${job.version} no primary tag`);
  const variant = job.variant === undefined ? {} : { variant: job.variant };
  const published = await publishVersion({
    target: options.target,
    version: job.version,
    platforms: entries,
    carried: { platforms: job.carried, ownTags: job.own_tags ?? [] },
    ...variant,
    spec: options.spec,
    primaryTag,
    env: options.env,
    ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
    ...(options.signer === undefined ? {} : { signer: options.signer }),
    log: options.log,
  });
  const workDir = resolve(options.workDir);
  const platforms: SyncPairResult[] = [];
  for (const [i, result] of published.platforms.entries()) {
    const source = outcomes[i];
    const built = source?.outcome.ok === true ? source.outcome.built : undefined;
    if (result.status === "pushed" && source)
      await removeTaskDirectory(taskDirectory(workDir, options.spec.name, source.pair));
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
  const leftAlone = job.skipped.filter((s) => !retagged.has(s.platform));
  for (const platform of job.carried) {
    const tags = retagged.get(platform);
    if (tags !== undefined) platforms.push(retaggedPair(platform, tags));
    else if (job.retag) platforms.push(retagFailure(platform, published.error));
  }
  const wroteAny = platforms.some((p) => p.status === "published" || p.status === "retagged");
  return {
    version: job.version,
    ...variant,
    ...(wroteAny ? { primary_tag: published.primary_tag } : {}),
    cascade_tags_written: published.cascade_tags_written,
    layer_reuse: wheelLayerReuse(
      outcomes.flatMap(({ outcome }) => (outcome.ok === true ? (outcome.built.layers ?? []) : [])),
      platforms.map((p) => p.blobs),
    ),
    platforms: [...platforms, ...leftAlone.map((s) => skippedPair(s.platform, s.reason))],
  };
}
/** What a built pair pushes: its bundle, or an environment package's layers, each wheel's mounted
 *  from its shared layer once registered there. */
async function layersOf(built: BuiltPair, options: PushOptions): Promise<PlatformBundle["layers"]> {
  if (built.layers === undefined) return [built.bundle];
  if (options.wheels === undefined)
    return built.layers.map(({ path, digest }) => ({ path, ...(digest === undefined ? {} : { digest }) }));
  return registerWheelLayers(built.layers, options.wheels);
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
