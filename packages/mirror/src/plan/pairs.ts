import type { UpstreamVersion } from "../sources/types.js";
import type { Platforms } from "../spec/platforms.js";
import { platformApplicability } from "./applicability.js";
import { classifyPair, type PublishedVersions } from "./published.js";
import {
  type Ambiguity,
  type AssetResolution,
  type CompiledAssetSet,
  resolveAssets,
} from "./resolve-assets.js";

/**
 * One (version, platform) pair as `package check` reports it:
 * - `new`: wanted, its asset resolves, the version is not published;
 * - `missing`: wanted, its asset resolves, the version is published without this platform;
 * - `published`: the target holds it (whatever the spec says of it today);
 * - `untagged`: the target holds it under a build tag, but its version, now whole, lacks the
 *   exact and rolling tags the cascade owes it (an earlier run failed on another platform, or was
 *   killed while tagging): `sync` writes them, uploading nothing;
 * - `absent`: no upstream asset matches the platform's regexes for this version;
 * - `excluded`: a `broken` exclude of `platforms.<p>` holds it out, with the exclude's reason;
 * - `ambiguous`: two or more distinct assets match (the run cannot choose; see `ambiguities`).
 * Pairs outside the platform's `min_version`/`max_version` and `skip` excludes have no cell.
 */
export type PairCell =
  | { state: "new" | "missing" | "published" | "untagged" | "absent" }
  | { state: "excluded"; reason?: string }
  | { state: "ambiguous"; candidates: string[] };

export interface PairColumn {
  /** The platform key, prefixed `<variant>:` for a variant's own tags. */
  id: string;
  platform: string;
  set: CompiledAssetSet;
}

export interface PairRow {
  version: string;
  prerelease: boolean;
  /** Column id -> cell; a pair the spec drops has none. */
  cells: Record<string, PairCell>;
}

/** What the spec makes of a pair before the target is asked. */
type Wanted = { kind: "excluded"; reason?: string } | { kind: "wanted"; resolution: AssetResolution };

export interface PairPlan {
  /** Per version (in the order given), column id -> what the spec wants; dropped pairs left out. */
  pairs: Array<{ version: UpstreamVersion; wanted: Map<string, Wanted> }>;
}

export function pairColumns(sets: readonly CompiledAssetSet[]): PairColumn[] {
  return sets.flatMap((set) =>
    set.platforms.map(({ platform }) => ({
      id: set.variant === undefined ? platform : `${set.variant}:${platform}`,
      platform,
      set,
    })),
  );
}

/** Applies the platforms' windows and excludes, then resolves assets for every pair kept. */
export function planPairs(
  versions: readonly UpstreamVersion[],
  columns: readonly PairColumn[],
  platforms: Platforms | undefined,
): PairPlan {
  const pairs = versions.map((version) => {
    const wanted = new Map<string, Wanted>();
    const resolutions = new Map<CompiledAssetSet, Map<string, AssetResolution>>();
    for (const column of columns) {
      const leg = platforms?.[column.platform];
      const applicability = leg
        ? platformApplicability(version.version, leg)
        : { status: "applicable" as const };
      if (applicability.status === "outside") continue;
      if (applicability.status === "excluded") {
        if (applicability.severity === "skip") continue;
        wanted.set(column.id, {
          kind: "excluded",
          ...(applicability.reason === undefined ? {} : { reason: applicability.reason }),
        });
        continue;
      }
      let resolved = resolutions.get(column.set);
      if (!resolved) {
        resolved = resolveAssets(version, column.set);
        resolutions.set(column.set, resolved);
      }
      wanted.set(column.id, {
        kind: "wanted",
        resolution: resolved.get(column.platform) ?? { state: "absent" },
      });
    }
    return { version, wanted };
  });
  return { pairs };
}

/** The versions of `set` whose published platforms matter: those with at least one pair kept. */
export function versionsToAsk(
  plan: PairPlan,
  columns: readonly PairColumn[],
  set: CompiledAssetSet,
): string[] {
  const ids = columns.filter((c) => c.set === set).map((c) => c.id);
  return plan.pairs.filter((p) => ids.some((id) => p.wanted.has(id))).map((p) => p.version.version);
}

/**
 * The report's rows and the ambiguities among them, given what each set has published and, with
 * the cascade on, which versions of each set lack their exact tag (`untagged`).
 */
export function pairRows(
  plan: PairPlan,
  columns: readonly PairColumn[],
  published: ReadonlyMap<CompiledAssetSet, PublishedVersions>,
  untagged: ReadonlyMap<CompiledAssetSet, Pick<ReadonlySet<string>, "has">> = new Map(),
): { rows: PairRow[]; ambiguities: Ambiguity[] } {
  const ambiguities: Ambiguity[] = [];
  const rows = plan.pairs.map(({ version, wanted }) => {
    const cells: Record<string, PairCell> = {};
    for (const column of columns) {
      const want = wanted.get(column.id);
      if (!want) continue;
      const state = classifyPair(published.get(column.set) ?? new Map(), version.version, column.platform);
      const cell = cellOf(state, want);
      if (cell.state === "ambiguous") {
        ambiguities.push({
          version: version.version,
          platform: column.platform,
          variant: column.set.label,
          candidates: cell.candidates,
        });
      }
      cells[column.id] = cell;
    }
    markUntagged(cells, columns, (set) => untagged.get(set)?.has(version.version) === true);
    return { version: version.version, prerelease: version.prerelease, cells };
  });
  return { rows, ambiguities };
}

/**
 * A version owes its tags once it is whole: every pair of its set is published, absent or
 * excluded. Its published pairs then read `untagged`. A version with pairs still to push gets
 * its tags from that push instead.
 */
function markUntagged(
  cells: Record<string, PairCell>,
  columns: readonly PairColumn[],
  isUntagged: (set: CompiledAssetSet) => boolean,
): void {
  for (const set of new Set(columns.map((c) => c.set))) {
    if (!isUntagged(set)) continue;
    const own = columns.filter((c) => c.set === set && cells[c.id] !== undefined);
    const whole = own.every((c) => ["published", "absent", "excluded"].includes(cells[c.id]?.state ?? ""));
    if (!whole) continue;
    for (const c of own) if (cells[c.id]?.state === "published") cells[c.id] = { state: "untagged" };
  }
}

function cellOf(state: ReturnType<typeof classifyPair>, want: Wanted): PairCell {
  if (state === "published") return { state };
  if (want.kind === "excluded")
    return want.reason === undefined ? { state: "excluded" } : { state: "excluded", reason: want.reason };
  const { resolution } = want;
  if (resolution.state === "ambiguous") return { state: "ambiguous", candidates: resolution.candidates };
  if (resolution.state === "absent") return { state: "absent" };
  return { state };
}
