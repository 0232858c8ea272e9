import type { Logger } from "@pkg/common";
import { readOnly, sha256Digest } from "@pkg/oci";
import { type Metadata, serializeMetadata } from "@pkg/package";
import { selectMetadata } from "../../build/content/select-metadata.js";
import { contentSettings } from "../../build/content/settings.js";
import type { RunJobs } from "../../plan/jobs.js";
import type { RunPlan } from "../../plan/plan-run.js";
import type { CompiledAssetSet } from "../../plan/resolve-assets.js";
import type { BinScan } from "../../spec/bin-scan.js";
import type { MirrorSpec } from "../../spec/mirror-spec.js";
import { metadataDrift } from "./metadata-compare.js";
import { DRIFT_READ_CONCURRENCY, publishedConfigs, publishedMetadataReader } from "./published-metadata.js";

/** A published version the run leaves alone: its published platforms' metadata is compared. */
export interface DriftCandidate {
  version: string;
  variant?: string;
  set: CompiledAssetSet;
  /** Published platforms the spec still lists for the version. */
  platforms: string[];
  /** The version's own tags, oldest first: where its manifests are read. */
  tags: readonly string[];
}

/** A published version whose metadata differs from what the spec would publish now. */
export interface DriftFinding {
  version: string;
  variant?: string;
  /** The version's newest own tag: the one a patch starts from. */
  tag: string;
  /** Per drifted platform, the metadata fields that differ. */
  platforms: Array<{ platform: string; fields: string[] }>;
}

export interface DriftScanDeps {
  specDir: string;
  log: Logger;
  /** Registry reads in flight at once (default `DRIFT_READ_CONCURRENCY`). */
  concurrency?: number;
}

/**
 * The published versions inside the window that the run schedules nothing for (no pair to build,
 * none refused): a version scheduled as new or backfill is never also a drift candidate. Env
 * sources compose their metadata at prepare time and have none to compare: never candidates.
 */
export function driftCandidates(run: RunPlan, jobs: RunJobs): DriftCandidate[] {
  const type = run.spec.source.type;
  if (type === "pylock" || type === "pypi") return [];
  const candidates: DriftCandidate[] = [];
  for (const job of jobs.versions) {
    if (job.pairs.length > 0 || job.refused.length > 0 || job.carried.length === 0) continue;
    const set = run.columns.find((column) => column.set.variant === job.variant)?.set;
    const tags = set === undefined ? [] : (run.ownTags.get(set)?.get(job.version) ?? []);
    if (set === undefined || tags.length === 0) continue;
    candidates.push({
      version: job.version,
      ...(job.variant === undefined ? {} : { variant: job.variant }),
      set,
      platforms: [...job.carried],
      tags,
    });
  }
  return candidates;
}

/** What the spec would publish for one (asset set, platform) now, and how `binaries` was made. */
export interface ExpectedMetadata {
  metadata: Metadata;
  /** The config blob digest those bytes would have. */
  digest: string;
  binScan: BinScan;
}

/**
 * Compares the metadata the spec would publish now with what each drift candidate's platforms
 * carry, reading the registry at most `concurrency` requests at a time. A config blob with the
 * digest the spec's metadata serialises to is current without being read, and a tag whose
 * published-summary record names its configs is not read either (see `publishedConfigs`). Any
 * read failure fails the scan: it never reports a version current (or new) for want of an answer.
 */
export async function scanDrift(run: RunPlan, jobs: RunJobs, deps: DriftScanDeps): Promise<DriftFinding[]> {
  const candidates = driftCandidates(run, jobs);
  if (candidates.length === 0) return [];
  deps.log.progress(
    `${run.target.displayName}: comparing the published metadata of ${candidates.length} version${candidates.length === 1 ? "" : "s"}`,
  );
  const reader = publishedMetadataReader(readOnly(run.target), deps.concurrency ?? DRIFT_READ_CONCURRENCY);
  const expected = expectedMetadata(run.spec, deps.specDir);
  // the summary's records, when the plan used it, name each platform's config: no read for those
  const summary = run.publishedReads.summaryTags;
  const findings = await Promise.all(
    candidates.map(async (candidate): Promise<DriftFinding | undefined> => {
      const configs = await publishedConfigs(candidate.tags, summary, reader);
      const compared = await Promise.all(
        candidate.platforms.map(async (platform) => {
          const lookup = configs.get(platform);
          if (lookup === undefined) return undefined;
          const [want, config] = await Promise.all([expected(candidate.set, platform), lookup()]);
          if (config === undefined || config.digest === want.digest) return undefined;
          const fields = metadataDrift(want.metadata, await reader.metadata(config), want.binScan);
          return fields.length === 0 ? undefined : { platform, fields };
        }),
      );
      const drifted = compared.filter((entry) => entry !== undefined);
      const tag = candidate.tags.at(-1);
      if (drifted.length === 0 || tag === undefined) return undefined;
      return {
        version: candidate.version,
        ...(candidate.variant === undefined ? {} : { variant: candidate.variant }),
        tag,
        platforms: drifted,
      };
    }),
  );
  return findings.filter((finding) => finding !== undefined);
}

/**
 * The metadata each (asset set, platform) builds with, read once per pair of them: what `pipeline
 * plan` compares published versions with and what `pipeline patch` publishes.
 */
export function expectedMetadata(
  spec: MirrorSpec,
  specDir: string,
): (set: Pick<CompiledAssetSet, "variant">, platform: string) => Promise<ExpectedMetadata> {
  const cache = new Map<string, Promise<ExpectedMetadata>>();
  return (set, platform) => {
    const key = `${set.variant ?? ""}\0${platform}`;
    let pending = cache.get(key);
    if (pending === undefined) {
      const variant = spec.variants?.find((v) =>
        set.variant === undefined ? v.default || v.name === undefined : v.name === set.variant,
      );
      pending = selectMetadata(spec, variant, platform, specDir).then(({ metadata }) => ({
        metadata,
        digest: sha256Digest(serializeMetadata(metadata)),
        binScan: contentSettings(spec, variant).binScan,
      }));
      cache.set(key, pending);
    }
    return pending;
  };
}
