import type { PairRow } from "../plan/pairs.js";
import { type PlanRunOptions, planRun } from "../plan/plan-run.js";
import type { SummaryUse } from "../plan/published.js";
import type { Ambiguity } from "../plan/resolve-assets.js";
import type { ResolvedBounds } from "../plan/window.js";
import type { LoadedSpec } from "../spec/loader.js";

export type CheckOptions = PlanRunOptions;

/** A window edge given as url, generator or file, with the value this run resolved it to. */
export interface ResolvedEdge {
  edge: "min" | "max";
  version: string;
  inclusive: boolean;
}

export interface CheckReport {
  name: string;
  target: string;
  versions_resolved: ResolvedBounds;
  /** The edges that were not literals: the `resolved min` / `resolved max` lines. */
  resolved: ResolvedEdge[];
  /** Versions the source listed, before the window. */
  upstream_versions: number;
  /** Column ids, in spec order: platform keys, `<variant>:<key>` for a variant's. */
  columns: string[];
  /** Newest first. */
  rows: PairRow[];
  /** Pairs whose assets are ambiguous (not published ones): `check` exits 65 when any. */
  ambiguities: Ambiguity[];
  /** How the published state was read: one tag listing, then the summary and/or index reads. */
  published_reads: PublishedReads;
}

export interface PublishedReads {
  tags: number;
  summary: SummaryUse;
  /** Version record tags whose platforms came from the published summary. */
  summary_hits: number;
  /** Image indexes read one by one. */
  index_reads: number;
}

/**
 * `package check`: lists upstream, applies the window and the platforms' applicability, resolves
 * assets and reads what the target holds, then reports every pair. Downloads and pushes nothing.
 */
export async function runCheck(loaded: LoadedSpec, options: CheckOptions): Promise<CheckReport> {
  const run = await planRun(loaded, options);
  return {
    name: run.spec.name,
    target: run.target.displayName,
    versions_resolved: run.bounds,
    resolved: resolvedEdges(loaded, run.bounds),
    upstream_versions: run.upstreamCount,
    columns: run.columns.map((c) => c.id),
    rows: run.rows,
    ambiguities: run.ambiguities,
    published_reads: {
      tags: run.publishedReads.tagCount,
      summary: run.publishedReads.summary,
      summary_hits: run.publishedReads.summaryHits,
      index_reads: run.publishedReads.indexReads,
    },
  };
}

function resolvedEdges(loaded: LoadedSpec, bounds: ResolvedBounds): ResolvedEdge[] {
  const edges: ResolvedEdge[] = [];
  for (const edge of ["min", "max"] as const) {
    const bound = loaded.spec.versions?.[edge];
    const version = bounds[edge];
    if (bound === undefined || typeof bound.version === "string" || version === undefined) continue;
    edges.push({ edge, version, inclusive: bounds[`${edge}_inclusive`] });
  }
  return edges;
}
