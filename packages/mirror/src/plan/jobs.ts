import type { UpstreamAsset } from "../sources/types.js";
import { DEFAULT_BUILD_TIMESTAMP } from "../spec/build-timestamp.js";
import { takeForRun } from "./backfill.js";
import type { PairColumn, PairPlan, PairRow } from "./pairs.js";
import type { RunPlan } from "./plan-run.js";
import { primaryTagFor } from "./primary-tag.js";
import { describeAmbiguity } from "./resolve-assets.js";
import { compareVersionTexts } from "./version-order.js";
import type { ResolvedBounds } from "./window.js";

/**
 * One (version, platform) pair to build and push. Jobs are plain data (no class instance, map or
 * regular expression), so that a plan written as JSON by one process is carried out by another.
 */
export interface PairJob {
  version: string;
  /** The platform key as the spec writes it: `linux/amd64`, `linux/arm64+libc.musl`. */
  platform: string;
  /** The non-default variant (tag prefix); absent for the default one. */
  variant?: string;
  /** The column id: the platform key, prefixed `<variant>:` for a variant's. Names the pair's work directory. */
  column: string;
  asset: UpstreamAsset;
}

/** A pair of a taken version that fails before any work: its assets are ambiguous. */
export interface RefusedPair {
  platform: string;
  column: string;
  message: string;
}

/** A pair this run leaves alone, and why. */
export interface SkippedPair {
  platform: string;
  column: string;
  reason: string;
}

/** The pairs of one (version, asset set): pushed together, as one `publishVersion`. */
export interface VersionJob {
  version: string;
  prerelease: boolean;
  /** The non-default variant whose tags these are; absent for the default one. */
  variant?: string;
  /**
   * The tag the version is pushed under: its build time (`build_timestamp`, the run's start) for
   * a version with pairs to push; for one owing its tags, its newest primary tag. Absent when the
   * run neither pushes nor tags anything of the version.
   */
  primary_tag?: string;
  pairs: PairJob[];
  refused: RefusedPair[];
  /** Pairs left alone: published ones among them are carried into the version's tags. */
  skipped: SkippedPair[];
  /**
   * Platforms an earlier run published: when this run makes the version whole, their manifests
   * go into the version's exact and rolling tags beside this run's.
   */
  carried: string[];
  /**
   * With `carried` platforms, the version's own tags (primary tags, oldest first; its bare tag
   * under `build_timestamp: none`), where their manifests are read: listed by the plan, so the
   * push does not list the repository again.
   */
  own_tags?: string[];
  /** The version is whole and owes its tags (`untagged` pairs): they are written, nothing pushed. */
  retag: boolean;
}

/** What a run does: the contract between planning, preparing and pushing. */
export interface RunJobs {
  name: string;
  /** The target as users see it. */
  target: string;
  versions_resolved: ResolvedBounds;
  /** The spec's `pkg_mirror.rev`, when set. */
  pkg_mirror_rev?: string;
  /** Oldest version first, asset sets in spec order: the push order. */
  versions: VersionJob[];
}

/**
 * Turns the pair plan into work: pairs that are `new` or `missing` become pair jobs, ambiguous
 * ones are refused (they fail without stopping the others), `untagged` ones make their version a
 * retag (always taken: it is no new version), every other pair is skipped with its reason.
 * Outstanding versions are taken per `versions.backfill` / `new_per_run`; the rest are skipped
 * as not taken in this run. Each version with work gets its primary tag here, built at `now`.
 */
export function planJobs(run: RunPlan, now: Date): RunJobs {
  const { spec } = run;
  const outstanding = run.rows.filter((row) =>
    Object.values(row.cells).some(
      (cell) => cell.state === "new" || cell.state === "missing" || cell.state === "ambiguous",
    ),
  );
  const taken = new Set(takeForRun(outstanding, spec.versions).map((row) => row.version));
  const oldestFirst = [...run.rows].sort((a, b) => compareVersionTexts(a.version, b.version));
  const wantedByVersion = new Map(run.plan.pairs.map((p) => [p.version.version, p.wanted]));
  const versions: VersionJob[] = [];
  for (const row of oldestFirst) {
    const wanted = wantedByVersion.get(row.version);
    if (!wanted) continue;
    for (const set of new Set(run.columns.map((c) => c.set))) {
      const columns = run.columns.filter((c) => c.set === set);
      const job = versionJob(row, wanted, taken.has(row.version), columns);
      if (job === undefined) continue;
      if (job.pairs.length > 0 || job.refused.length > 0 || job.retag) {
        const own = run.ownTags.get(set)?.get(row.version) ?? [];
        // a version owing its tags has them written under its newest build
        const owed = job.retag ? own.at(-1) : undefined;
        job.primary_tag =
          owed ??
          primaryTagFor(row.version, spec.build_timestamp ?? DEFAULT_BUILD_TIMESTAMP, now, set.variant);
        if (job.carried.length > 0) job.own_tags = [...own];
      }
      versions.push(job);
    }
  }
  const rev = spec.pkg_mirror?.rev;
  return {
    name: spec.name,
    target: run.target.displayName,
    versions_resolved: run.bounds,
    ...(rev === undefined ? {} : { pkg_mirror_rev: rev }),
    versions,
  };
}

/** The job of one version and asset set (`columns`), or undefined when the spec drops all its pairs. */
function versionJob(
  row: PairRow,
  wanted: PairPlan["pairs"][number]["wanted"],
  taken: boolean,
  columns: readonly PairColumn[],
): VersionJob | undefined {
  const variant = columns[0]?.set.variant;
  const job: VersionJob = {
    version: row.version,
    prerelease: row.prerelease,
    ...(variant === undefined ? {} : { variant }),
    pairs: [],
    refused: [],
    skipped: [],
    carried: [],
    retag: false,
  };
  let cells = 0;
  for (const column of columns) {
    const cell = row.cells[column.id];
    if (cell === undefined) continue;
    cells++;
    const { platform, id } = column;
    const skip = (reason: string) => job.skipped.push({ platform, column: id, reason });
    const want = wanted.get(id);
    const resolution = want?.kind === "wanted" ? want.resolution : undefined;
    if (cell.state === "published" || cell.state === "untagged") job.carried.push(platform);
    if (cell.state === "untagged") job.retag = true;
    else if (cell.state === "published") skip("published");
    else if (cell.state === "absent") skip("no upstream asset");
    else if (cell.state === "excluded") skip(cell.reason ? `excluded: ${cell.reason}` : "excluded");
    else if (!taken) skip("not taken in this run (new_per_run)");
    else if (cell.state === "ambiguous") {
      const message = `ambiguous asset: ${describeAmbiguity({
        version: row.version,
        platform,
        variant: column.set.label,
        candidates: cell.candidates,
      })}`;
      job.refused.push({ platform, column: id, message });
    } else if (resolution?.state === "resolved") {
      job.pairs.push({
        version: row.version,
        platform,
        ...(variant === undefined ? {} : { variant }),
        column: id,
        asset: assetJob(resolution.asset),
      });
    }
  }
  return cells > 0 ? job : undefined;
}

/** The asset as plain data: its name, where to download it, and the digest upstream declares. */
function assetJob({ name, url, digest }: UpstreamAsset): UpstreamAsset {
  return { name, url, ...(digest === undefined ? {} : { digest }) };
}
