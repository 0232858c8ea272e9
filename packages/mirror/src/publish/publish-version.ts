import { setTimeout as delay } from "node:timers/promises";
import { describeError, type ExitCode, type Logger, type TaskProgress } from "@pkg/common";
import type { Target } from "@pkg/oci";
import { parseTag } from "@pkg/package";
import { type LayerReuse, publishTags, pushPackage } from "@pkg/package/push";
import pLimit from "p-limit";
import { recordedVersions } from "../plan/record-tags.js";
import { compareVersionTexts, isPep440Only } from "../plan/version-order.js";
import { isPrerelease as isPep440Prerelease, parseVersion as parsePep440 } from "../python/pep440.js";
import { DEFAULT_CASCADE } from "../spec/cascade.js";
import { defaultConcurrency } from "../spec/concurrency.js";
import type { MirrorSpec } from "../spec/mirror-spec.js";
import { annotationsFor } from "./annotations.js";
import { type Deadline, PUSH_ATTEMPT_TIMEOUT_MS, withAttemptDeadline } from "./attempt-deadline.js";
import { type CarriedEntries, type PlatformManifest, readCarriedEntries } from "./carried-entries.js";
import {
  type PreparedPlatform,
  preparePlatform,
  type ReadyPlatform,
  type VersionPlatform,
} from "./ready-platform.js";
import { type RetryOutcome, withPushRetries } from "./retry.js";
import type { RunSigner } from "./sign-published.js";

export interface PublishVersionOptions {
  target: Target;
  /** The upstream version, without build suffix. */
  version: string;
  /** Every platform of the version in this run, failed ones included (they withhold the rolling tags). */
  platforms: readonly VersionPlatform[];
  /**
   * Platforms of the version earlier runs published (as the plan read them), and the version's
   * own tags their manifests are read from: they join the version's exact and rolling tags when
   * this run makes it whole. With no `platforms`, the run only writes the tags the version is owed.
   */
  carried?: { platforms: readonly string[]; ownTags: readonly string[] };
  /** Non-default variant name; absent for the default variant. */
  variant?: string;
  spec: Pick<MirrorSpec, "cascade" | "concurrency" | "annotations" | "source">;
  /**
   * The tag the version is pushed under, as the plan decided it: this build's, or for a version
   * with nothing to push but the tags it owes, its newest primary tag.
   */
  primaryTag: string;
  /** The CI variables the annotations come from (default process.env). */
  env?: NodeJS.ProcessEnv;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** The timer bounding each push attempt (3600 s); injected by tests. */
  deadline?: Deadline;
  /** Signs the platforms pushed and the indexes of the tags written (the spec has `sign`). */
  signer?: RunSigner;
  log: Logger;
}

export interface PlatformPublishResult {
  platform: string;
  status: "pushed" | "failed";
  /** Tags that now hold this platform, the primary tag first. */
  tags_written: string[];
  layer_reuse: LayerReuse;
  /** Push attempts made (0 when the platform failed before the push). */
  attempts: number;
  error?: { exit_code: ExitCode; message: string };
}

export interface VersionPublishResult {
  version: string;
  primary_tag: string;
  /** Whether the version was pushed with its rolling tags (`cascade` on and every platform ready). */
  cascade: boolean;
  platforms: PlatformPublishResult[];
  /** Carried platforms and the tags this run wrote for them (empty unless the version was made whole). */
  retagged: Array<{ platform: string; tags_written: string[] }>;
  /** Why writing the tags of a version with nothing to push failed. */
  error?: { exit_code: ExitCode; message: string };
  /** The exact and rolling tags the registry received, deduplicated, most specific first. */
  cascade_tags_written: string[];
}

const LATEST = "latest";

/**
 * Whether the repository holds a PEP 440 release the package grammar cannot read (`1.0.post1`)
 * newer than the version being published: it holds `latest` (see `moveLatestToPep440Release`),
 * which the grammar's cascade, blind to it, would otherwise move back. Only Python sources have
 * such versions: the tag list is read for them alone.
 */
async function newerPep440Release(options: PublishVersionOptions): Promise<boolean> {
  const type = options.spec.source?.type;
  if ((type !== "pypi" && type !== "pylock") || isPep440Only(options.version)) return false;
  let tags: string[];
  try {
    tags = await options.target.listTags();
  } catch (error) {
    // unknown: `latest` is better left than moved back
    const why = error instanceof Error ? error.message : String(error);
    options.log.warn(`${options.version}: latest left as it is: ${why}`);
    return true;
  }
  return recordedVersions(tags).some((other) => {
    const parsed = isPep440Only(other) ? parsePep440(other) : undefined;
    return (
      parsed !== undefined && !isPep440Prerelease(parsed) && compareVersionTexts(other, options.version) > 0
    );
  });
}

/**
 * A PEP 440 release the package grammar cannot tag (`2.0.post1`) takes no exact or rolling tag,
 * but, published whole and newer than every version the repository holds (with the cascade on),
 * it takes `latest`: what `pkg exec` of the bare name runs. True when `latest` was written.
 */
async function moveLatestToPep440Release(options: PublishVersionOptions, primary: string): Promise<boolean> {
  const { target, version, log } = options;
  if (!isPep440Only(version) || !(options.spec.cascade ?? DEFAULT_CASCADE).enabled) return false;
  const parsed = parsePep440(version);
  if (parsed === undefined || isPep440Prerelease(parsed)) return false;
  try {
    const newer = recordedVersions(await target.listTags()).filter(
      (other) => other !== version && compareVersionTexts(other, version) > 0,
    );
    if (newer.length > 0) return false;
    const index = await target.fetchManifest(primary);
    if (index === undefined) return false;
    await target.pushManifest(index.bytes, index.descriptor.mediaType, LATEST);
    log.info(`${target.displayName}:${LATEST} -> ${primary} (the newest release)`);
    return true;
  } catch (error) {
    log.warn(`${version}: ${LATEST} not moved: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}

function failed(
  platform: string,
  attempts: number,
  error: { exitCode: ExitCode; message: string },
): PlatformPublishResult {
  return {
    platform,
    status: "failed",
    tags_written: [],
    layer_reuse: { mounted: 0, uploaded: 0, verified: 0 },
    attempts,
    error: { exit_code: error.exitCode, message: error.message },
  };
}

/**
 * Platforms of a version pushed at once: one platform's round trips and registry-side work
 * overlap another's upload. The version's tags follow once every platform is in.
 */
const PLATFORM_CONCURRENCY = 3;

/** The version's progress over the platforms being pushed: their keys, and their bytes summed. */
class PlatformsProgress {
  readonly #pushing = new Map<string, { sent: number; total: number }>();
  constructor(readonly task: TaskProgress) {}

  start(platform: string): void {
    this.#pushing.set(platform, { sent: 0, total: 0 });
    this.#show();
  }

  bytes(platform: string, sent: number, total: number): void {
    const counted = this.#pushing.get(platform);
    if (counted === undefined) return;
    counted.sent = sent;
    counted.total = total;
    this.#sum();
  }

  end(platform: string): void {
    this.#pushing.delete(platform);
    if (this.#pushing.size > 0) this.#show();
  }

  #show(): void {
    this.task.state(`pushing ${[...this.#pushing.keys()].join(", ")}`);
    this.#sum();
  }

  #sum(): void {
    let sent = 0;
    let total = 0;
    for (const counted of this.#pushing.values()) {
      sent += counted.sent;
      total += counted.total;
    }
    this.task.bytes(sent, total);
  }
}

interface PushContext {
  options: PublishVersionOptions;
  /** The version's progress: which platforms are being pushed, and their bytes. */
  progress: PlatformsProgress;
  primary: string;
  /** `latest` stays where it is (see `newerPep440Release`). */
  keepLatest: boolean;
  annotations: Record<string, string>;
  maxRetries: number;
}

/** One push step with the attempt timeout and retries on 75. */
function retried<T>(
  { options, maxRetries }: PushContext,
  what: string,
  work: (target: Target) => Promise<T>,
): Promise<RetryOutcome<T>> {
  const { target, log } = options;
  return withPushRetries(() => withAttemptDeadline(target, PUSH_ATTEMPT_TIMEOUT_MS, work, options.deadline), {
    maxRetries,
    sleep: options.sleep ?? ((ms) => delay(ms)),
    random: options.random ?? Math.random,
    log,
    what: `${target.displayName}:${what}`,
  });
}

type Manifest = PlatformManifest;

interface PushedPlatform {
  result: PlatformPublishResult;
  /** What the tags are to list, when the manifest is in the repository. */
  manifest?: Manifest;
}

const writeTags = (context: PushContext, target: Target, entries: Manifest[], cascade: boolean) =>
  publishTags({
    target,
    tag: context.primary,
    entries,
    cascade,
    keepLatest: context.keepLatest,
    annotations: context.annotations,
    log: context.options.log,
  });

/** One platform's blobs and manifest, with retries; no tag names it yet. */
async function pushPlatform(platform: ReadyPlatform, context: PushContext): Promise<PushedPlatform> {
  const { log } = context.options;
  const { progress } = context;
  const outcome = await retried(
    context,
    `${context.primary} (${platform.platform})`,
    async (attemptTarget) => {
      progress.start(platform.platform);
      const pushed = await pushPackage({
        onBytes: (sent, total) => progress.bytes(platform.platform, sent, total),
        target: attemptTarget,
        tag: context.primary,
        platform: platform.key,
        layers: platform.layers,
        metadata: platform.metadata,
        cascade: false,
        annotations: context.annotations,
        log,
        writeTags: false,
      });
      progress.end(platform.platform);
      return pushed;
    },
  );
  if (!outcome.ok) {
    progress.end(platform.platform);
    log.warn(outcome.error.message);
    return { result: failed(platform.platform, outcome.attempts, outcome.error) };
  }
  const pushed = outcome.value;
  return {
    manifest: { platform: platform.key, entry: pushed.entry },
    result: {
      platform: platform.platform,
      status: "pushed",
      tags_written: [],
      layer_reuse: pushed.layers,
      attempts: outcome.attempts,
    },
  };
}

const manifestsOf = (pushed: readonly PushedPlatform[]) =>
  pushed.flatMap((p) => (p.manifest ? [p.manifest] : []));

/**
 * The version's tags, each tag's index once for all of `entries` (manifests already in the
 * repository), with retries: the whole cascade, or the primary tag alone (`cascade` false).
 */
async function tagVersion(
  entries: readonly Manifest[],
  context: PushContext,
  cascade: boolean,
): Promise<RetryOutcome<string[][]>> {
  if (entries.length === 0) return { ok: true, value: [], attempts: 0 };
  context.progress.task.state("tagging");
  const outcome = await retried(context, `${context.primary} (tags)`, async (attemptTarget) => {
    return (await writeTags(context, attemptTarget, [...entries], cascade)).tags;
  });
  if (!outcome.ok) context.options.log.warn(outcome.error.message);
  return outcome;
}

/** Each pushed platform's result with its tags; failed when its tags could not be written. */
function withTags(
  pushed: readonly PushedPlatform[],
  tags: RetryOutcome<string[][]>,
): PlatformPublishResult[] {
  let next = 0;
  return pushed.map(({ result, manifest }) => {
    if (!manifest) return result;
    if (!tags.ok) return failed(result.platform, result.attempts + tags.attempts, tags.error);
    return { ...result, tags_written: tags.value[next++] ?? [] };
  });
}

const noCarried: CarriedEntries = { entries: [], missing: [] };

/** Why a version's rolling tags are withheld, or undefined when it is whole. */
function incompleteness(notReady: readonly string[], carried: CarriedEntries): string | undefined {
  const reasons = [
    ...(notReady.length > 0 ? [`${notReady.join(", ")} failed in this run`] : []),
    ...(carried.missing.length > 0
      ? [`${carried.missing.join(", ")} published earlier but no longer in the repository`]
      : []),
  ];
  return reasons.length > 0 ? reasons.join("; ") : undefined;
}

/**
 * Pushes one version: each platform's blobs and manifest, a few platforms at a time, each push
 * retried per `concurrency.max_retries`; then, once they are all in, each of the version's tags
 * once for all its platforms, the primary tag first and the exact tag last.
 * Rolling tags only when `cascade` is on and the version is whole: every platform of this run
 * pushed and every `carried` platform (one an earlier run published) still there; they then hold
 * the carried platforms' manifests too.
 * Otherwise the green platforms get the primary tag alone. With nothing to push but carried
 * platforms, the version's tags are written for them under `primaryTag`, its newest primary tag:
 * the run that pushed them failed elsewhere, or was killed while tagging.
 */
export async function publishVersion(options: PublishVersionOptions): Promise<VersionPublishResult> {
  const task = options.log.tasks.start(`push ${options.version}`);
  try {
    const result = await publishSteps(options, task);
    const failures = result.platforms.filter((p) => p.status !== "pushed").map((p) => p.platform);
    if (result.error) task.failed(result.error.message);
    else if (failures.length > 0) task.failed(`not published: ${failures.join(", ")}`);
    else task.done([result.primary_tag, ...result.cascade_tags_written].join(" "));
    return result;
  } catch (error) {
    task.failed(describeError(error).line);
    throw error;
  }
}

async function publishSteps(
  options: PublishVersionOptions,
  task: TaskProgress,
): Promise<VersionPublishResult> {
  const { spec, log } = options;
  const prepared: PreparedPlatform[] = [];
  for (const entry of options.platforms) prepared.push(await preparePlatform(entry));
  const retagOnly = prepared.length === 0;
  const primary = options.primaryTag;

  // a PEP 440 version the package grammar cannot hold has no exact or rolling tags: its builds only
  const enabled = (spec.cascade ?? DEFAULT_CASCADE).enabled && !isPep440Only(options.version);
  const notReady = prepared.filter((p) => !p.ready).map((p) => p.platform);
  // the carried manifests matter only to a version this run can make whole
  const carried =
    enabled && notReady.length === 0 && options.carried !== undefined && options.carried.platforms.length > 0
      ? await readCarriedEntries(options.target, options.carried.ownTags, options.carried.platforms)
      : noCarried;
  const withheld = incompleteness(notReady, carried);
  const cascade = enabled && withheld === undefined && prepared.length + carried.entries.length > 0;
  const ready = prepared.filter((p) => p.ready).map((p) => p.platform);
  if (retagOnly && withheld !== undefined)
    log.warn(`${options.version}: ${withheld}; its tags are not written`);
  if (enabled && withheld !== undefined && ready.length > 0) {
    log.warn(
      `${options.version}: ${withheld}; rolling tags withheld: ${ready.join(", ")} publish${ready.length === 1 ? "es" : ""} under ${primary} only`,
    );
  }

  const context: PushContext = {
    options,
    progress: new PlatformsProgress(task),
    primary,
    keepLatest: cascade && (await newerPep440Release(options)),
    annotations: annotationsFor(spec, options.env ?? process.env),
    maxRetries: spec.concurrency?.max_retries ?? defaultConcurrency(1).max_retries,
  };
  // every ready platform a few at a time, in the version's order in the results; the tags after
  const limit = pLimit(PLATFORM_CONCURRENCY);
  const pushed: PushedPlatform[] = await Promise.all(
    prepared.map((platform) =>
      platform.ready
        ? limit(() => pushPlatform(platform, context))
        : { result: failed(platform.platform, 0, platform) },
    ),
  );
  // rolling tags only when every platform made it; they carry the platforms earlier runs published
  const moveRolling = cascade && pushed.every((p) => p.manifest !== undefined);
  const withCarried = moveRolling ? carried.entries : [];
  const tags = await tagVersion([...withCarried, ...manifestsOf(pushed)], context, moveRolling);
  // the tag lists of the carried entries lead, when they were published with this run's
  const carriedTags = tags.ok ? tags.value.slice(0, withCarried.length) : [];
  const ownTags: RetryOutcome<string[][]> = tags.ok
    ? { ...tags, value: tags.value.slice(withCarried.length) }
    : tags;
  const results = withTags(pushed, ownTags);
  const retagged = withCarried.map((entry, i) => ({
    platform: entry.asked,
    tags_written: carriedTags[i] ?? [],
  }));
  if (options.signer && tags.ok && tags.value.length > 0)
    await options.signer.signVersion(options.target, manifestsOf(pushed), tags.value.flat());
  const cascadeTags = new Set<string>();
  if (moveRolling && tags.ok) {
    for (const list of tags.value)
      for (const tag of list) if (tag !== primary && parseTag(tag).kind !== "primary") cascadeTags.add(tag);
  }
  const whole = notReady.length === 0 && pushed.length > 0 && pushed.every((p) => p.manifest !== undefined);
  if (tags.ok && whole && (await moveLatestToPep440Release(options, primary))) cascadeTags.add(LATEST);
  return {
    version: options.version,
    primary_tag: primary,
    cascade,
    platforms: results,
    retagged: tags.ok ? retagged : [],
    ...(!tags.ok && retagOnly
      ? { error: { exit_code: tags.error.exitCode, message: tags.error.message } }
      : {}),
    cascade_tags_written: [...cascadeTags],
  };
}
