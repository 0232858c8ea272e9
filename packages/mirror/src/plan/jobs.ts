import { compareVersions, parseVersion } from "@pkg/package";
import type { UpstreamAsset, UpstreamVersion } from "../sources/types.js";
import type { Versions } from "../spec/versions.js";
import { takeForRun } from "./backfill.js";
import type { PairColumn } from "./pairs.js";
import type { RunPlan } from "./plan-run.js";
import { describeAmbiguity } from "./resolve-assets.js";

/** One (version, platform) pair this run builds and pushes. */
export interface SyncTask {
  version: UpstreamVersion;
  column: PairColumn;
  asset: UpstreamAsset;
}

/** A pair of a taken version that fails before any work: its assets are ambiguous. */
export interface RefusedPair {
  version: string;
  column: PairColumn;
  message: string;
}

/** A pair this run leaves alone, and why. */
export interface SkippedPair {
  version: string;
  column: PairColumn;
  reason: string;
}

/** The pairs of one (version, asset set): pushed together, as one `publishVersion`. */
export interface VersionGroup {
  version: string;
  columns: PairColumn[];
  tasks: SyncTask[];
  refused: RefusedPair[];
  /** Pairs left alone: published ones among them are carried into the version's tags. */
  skipped: SkippedPair[];
  /**
   * Pairs an earlier run published: when this run makes the version whole, their manifests go
   * into the version's exact and rolling tags beside this run's.
   */
  carried: PairColumn[];
  /** The version is whole and owes its tags (`untagged` pairs): they are written, nothing pushed. */
  retag: boolean;
}

export interface SyncPlan {
  /** Oldest version first, asset sets in spec order: the push order. */
  groups: VersionGroup[];
}

/**
 * Turns the pair plan into work: pairs that are `new` or `missing` become tasks, ambiguous ones
 * are refused (they fail without stopping the others), `untagged` ones make their version a
 * retag (always taken: it is no new version), every other pair is skipped with its reason.
 * Outstanding versions are taken per `versions.backfill` / `new_per_run`; the rest are skipped
 * as not taken in this run.
 */
export function planSync(run: RunPlan, versions: Versions | undefined): SyncPlan {
  const wantedByVersion = new Map(run.plan.pairs.map((p) => [p.version.version, p]));
  const outstanding = run.rows.filter((row) =>
    Object.values(row.cells).some(
      (cell) => cell.state === "new" || cell.state === "missing" || cell.state === "ambiguous",
    ),
  );
  const taken = new Set(takeForRun(outstanding, versions).map((row) => row.version));
  const groups: VersionGroup[] = [];
  const oldestFirst = [...run.rows].sort((a, b) =>
    compareVersions(parseVersion(a.version), parseVersion(b.version)),
  );
  for (const row of oldestFirst) {
    const pair = wantedByVersion.get(row.version);
    if (!pair) continue;
    for (const set of new Set(run.columns.map((c) => c.set))) {
      const group: VersionGroup = {
        version: row.version,
        columns: [],
        tasks: [],
        refused: [],
        skipped: [],
        carried: [],
        retag: false,
      };
      for (const column of run.columns.filter((c) => c.set === set)) {
        const cell = row.cells[column.id];
        if (cell === undefined) continue;
        group.columns.push(column);
        const want = pair.wanted.get(column.id);
        const resolution = want?.kind === "wanted" ? want.resolution : undefined;
        if (cell.state === "published" || cell.state === "untagged") group.carried.push(column);
        if (cell.state === "untagged") group.retag = true;
        else if (cell.state === "published")
          group.skipped.push({ version: row.version, column, reason: "published" });
        else if (cell.state === "absent")
          group.skipped.push({ version: row.version, column, reason: "no upstream asset" });
        else if (cell.state === "excluded") {
          const reason = cell.reason ? `excluded: ${cell.reason}` : "excluded";
          group.skipped.push({ version: row.version, column, reason });
        } else if (!taken.has(row.version)) {
          group.skipped.push({ version: row.version, column, reason: "not taken in this run (new_per_run)" });
        } else if (cell.state === "ambiguous") {
          const message = `ambiguous asset: ${describeAmbiguity({
            version: row.version,
            platform: column.platform,
            variant: column.set.label,
            candidates: cell.candidates,
          })}`;
          group.refused.push({ version: row.version, column, message });
        } else if (resolution?.state === "resolved") {
          group.tasks.push({ version: pair.version, column, asset: resolution.asset });
        }
      }
      if (group.columns.length > 0) groups.push(group);
    }
  }
  return { groups };
}
