import { ExitCode, type Logger, PkgError } from "@pkg/common";
import type { Target } from "@pkg/oci";
import { readMetadataFile } from "@pkg/package";
import type { LayerReuse } from "@pkg/package/push";
import type { RunnableSpec } from "../../plan/plan-run.js";
import { publishVersion, type VersionPlatform } from "../../publish/index.js";
import type { RunSigner } from "../../publish/sign-published.js";
import { noReuse, wheelLayerReuse } from "../sync-report.js";
import type { VersionDecision } from "./decide.js";
import { registerWheelLayers, type WheelRegistration } from "./wheel-layers.js";

export interface PublishDecidedOptions {
  target: Target;
  spec: RunnableSpec;
  env: NodeJS.ProcessEnv;
  log: Logger;
  /** Platforms the version's primary tag already holds: an earlier attempt of this push pushed them. */
  existing: ReadonlySet<string>;
  sleep?: (ms: number) => Promise<void>;
  signer?: RunSigner;
  /** Where the wheel layers of environment packages are registered standalone, to mount from. */
  wheels: WheelRegistration;
}

/** What one version's push came to, for its run-summary row. */
export interface PublishedDecision {
  /** Pushed by this push. */
  pushed: string[];
  /** Held by the primary tag before this push; not pushed again. */
  existing: string[];
  /** Platforms whose push failed, with the one-line reason. */
  pushFailures: Array<{ platform: string; message: string }>;
  /** Tags the registry received: the primary tag first, then the exact and rolling tags. */
  tagsWritten: string[];
  layerReuse: LayerReuse;
}

/**
 * Pushes a decided version's green platforms under the plan's primary tag through the retrying
 * publisher. Red platforms go in as failures: they publish nothing and withhold the rolling tags,
 * so a version with any red gets its primary tag only, and a version made whole gets its exact and
 * rolling tags over every platform (the ones earlier runs published included). A green platform
 * the primary tag already holds (an earlier attempt of this push) is carried, not pushed again.
 */
export async function publishDecided(
  decision: VersionDecision,
  options: PublishDecidedOptions,
): Promise<PublishedDecision> {
  const { entry } = decision;
  const existing: string[] = [];
  const platforms: VersionPlatform[] = [];
  for (const pair of decision.pairs) {
    if (!pair.green) {
      platforms.push({
        platform: pair.platform,
        failure: new PkgError(ExitCode.Failed, pair.failure.message),
      });
    } else if (options.existing.has(pair.platform)) {
      existing.push(pair.platform);
    } else {
      platforms.push({
        platform: pair.platform,
        layers: await registerWheelLayers(pair.layers, options.wheels),
        metadata: await readMetadataFile(pair.metadata),
      });
    }
  }
  const anyGreen = decision.pairs.some((p) => p.green);
  if (!anyGreen) return { pushed: [], existing, pushFailures: [], tagsWritten: [], layerReuse: noReuse() };
  const carried = [...(entry.carried ?? []), ...existing];
  const ownTags = [...(entry.own_tags ?? []), ...(existing.length > 0 ? [entry.version] : [])];
  const published = await publishVersion({
    target: options.target,
    version: entry.source_version,
    platforms,
    carried: { platforms: carried, ownTags },
    ...(entry.variant === undefined ? {} : { variant: entry.variant }),
    spec: options.spec,
    primaryTag: entry.version,
    env: options.env,
    ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
    ...(options.signer === undefined ? {} : { signer: options.signer }),
    log: options.log,
  });
  const pushed = published.platforms.filter((p) => p.status === "pushed").map((p) => p.platform);
  const pushFailures = published.platforms
    .filter((p) => p.status === "failed" && decision.pairs.some((d) => d.green && d.platform === p.platform))
    .map((p) => ({ platform: p.platform, message: p.error?.message ?? "push failed" }));
  const wrote =
    pushed.length > 0 || published.retagged.length > 0 || (existing.length > 0 && !published.error);
  const tagsWritten = wrote ? [...new Set([entry.version, ...published.cascade_tags_written])] : [];
  return {
    pushed,
    existing,
    pushFailures,
    tagsWritten,
    layerReuse: wheelLayerReuse(
      decision.pairs.flatMap((pair) => (pair.green ? pair.layers : [])),
      published.platforms.map((p) => p.layer_reuse),
    ),
  };
}
