import { setTimeout as delay } from "node:timers/promises";
import type { ExitCode, Logger } from "@pkg/common";
import type { Target } from "@pkg/oci";
import { parseTag } from "@pkg/package";
import { type LayerReuse, pushPackage } from "@pkg/package/push";
import { DEFAULT_BUILD_TIMESTAMP } from "../spec/build-timestamp.js";
import { DEFAULT_CASCADE } from "../spec/cascade.js";
import { defaultConcurrency } from "../spec/concurrency.js";
import type { MirrorSpec } from "../spec/mirror-spec.js";
import { annotationsFor } from "./annotations.js";
import { type Deadline, PUSH_ATTEMPT_TIMEOUT_MS, withAttemptDeadline } from "./attempt-deadline.js";
import {
  type PreparedPlatform,
  preparePlatform,
  type ReadyPlatform,
  type VersionPlatform,
} from "./prepare.js";
import { primaryTagFor } from "./primary-tag.js";
import { withPushRetries } from "./retry.js";

export interface PublishVersionOptions {
  target: Target;
  /** The upstream version, without build suffix. */
  version: string;
  /** Every platform of the version in this run, failed ones included (they withhold the rolling tags). */
  platforms: readonly VersionPlatform[];
  /** Non-default variant name; absent for the default variant. */
  variant?: string;
  spec: Pick<MirrorSpec, "build_timestamp" | "cascade" | "concurrency" | "annotations">;
  /** The build time the primary tag carries. */
  now: Date;
  /** The CI variables the annotations come from (default process.env). */
  env?: NodeJS.ProcessEnv;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** The timer bounding each push attempt (3600 s); injected by tests. */
  deadline?: Deadline;
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
  /** The exact and rolling tags the registry received, deduplicated, most specific first. */
  cascade_tags_written: string[];
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

interface PushContext {
  options: PublishVersionOptions;
  primary: string;
  annotations: Record<string, string>;
  maxRetries: number;
}

/** One platform's push under the primary tag (and the rolling tags with `cascade`), with retries. */
async function pushPlatform(
  platform: ReadyPlatform,
  cascade: boolean,
  { options, primary, annotations, maxRetries }: PushContext,
): Promise<PlatformPublishResult> {
  const { target, log } = options;
  const outcome = await withPushRetries(
    () =>
      withAttemptDeadline(
        target,
        PUSH_ATTEMPT_TIMEOUT_MS,
        (attemptTarget) =>
          pushPackage({
            target: attemptTarget,
            tag: primary,
            platform: platform.key,
            layers: [platform.layer],
            metadata: platform.metadata,
            cascade,
            annotations,
            log,
          }),
        options.deadline,
      ),
    {
      maxRetries,
      sleep: options.sleep ?? ((ms) => delay(ms)),
      random: options.random ?? Math.random,
      log,
      what: `${target.displayName}:${primary} (${platform.platform})`,
    },
  );
  if (!outcome.ok) {
    log.warn(outcome.error.message);
    return failed(platform.platform, outcome.attempts, outcome.error);
  }
  return {
    platform: platform.platform,
    status: "pushed",
    tags_written: outcome.value.tags,
    layer_reuse: outcome.value.layers,
    attempts: outcome.attempts,
  };
}

/**
 * Pushes one version: each platform under the primary tag, one platform at a time, each push
 * retried per `concurrency.max_retries`. Rolling tags (`--cascade`) only when `cascade` is on and
 * every platform of the version is ready in this run; a version with a failed platform publishes
 * its green platforms under the primary tag alone. Once a push fails for good, the platforms after
 * it no longer move rolling tags either (those already written stay, as the spec accepts).
 */
export async function publishVersion(options: PublishVersionOptions): Promise<VersionPublishResult> {
  const { spec, log } = options;
  const primary = primaryTagFor(
    options.version,
    spec.build_timestamp ?? DEFAULT_BUILD_TIMESTAMP,
    options.now,
    options.variant,
  );
  const prepared: PreparedPlatform[] = [];
  for (const entry of options.platforms) prepared.push(await preparePlatform(entry));

  const enabled = (spec.cascade ?? DEFAULT_CASCADE).enabled;
  const notReady = prepared.filter((p) => !p.ready).map((p) => p.platform);
  const cascade = enabled && prepared.length > 0 && notReady.length === 0;
  if (enabled && notReady.length > 0) {
    log.warn(
      `${options.version}: ${notReady.join(", ")} failed in this run; rolling tags withheld, the other platforms publish under ${primary} only`,
    );
  }

  const context: PushContext = {
    options,
    primary,
    annotations: annotationsFor(spec, options.env ?? process.env),
    maxRetries: spec.concurrency?.max_retries ?? defaultConcurrency(1).max_retries,
  };
  const results: PlatformPublishResult[] = [];
  const cascadeTags = new Set<string>();
  let moveRolling = cascade;
  for (const platform of prepared) {
    if (!platform.ready) {
      results.push(failed(platform.platform, 0, platform));
      continue;
    }
    const result = await pushPlatform(platform, moveRolling, context);
    results.push(result);
    if (result.status === "failed") moveRolling = false;
    else if (moveRolling) {
      for (const tag of result.tags_written) if (parseTag(tag).kind !== "primary") cascadeTags.add(tag);
    }
  }
  return {
    version: options.version,
    primary_tag: primary,
    cascade,
    platforms: results,
    cascade_tags_written: [...cascadeTags],
  };
}
