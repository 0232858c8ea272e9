import { ExitCode, type Logger, PkgError } from "@pkg/common";
import { openRegistry, type Target } from "@pkg/oci";
import { compareVersions, parseVersion } from "@pkg/package";
import type { HttpClient } from "../http/types.js";
import { type PublishedVersions, readPublished } from "../plan/published.js";
import { versionKey } from "../plan/record-tags.js";
import { type Ambiguity, assetSets, type CompiledAssetSet, compileAssetSet } from "../plan/resolve-assets.js";
import { type ResolvedBounds, resolveBounds, selectInWindow } from "../plan/window.js";
import type { UpstreamVersion } from "../sources/types.js";
import type { LoadedSpec } from "../spec/loader.js";
import { type CheckRow, checkColumns, checkRows, planPairs, versionsToAsk } from "./check-plan.js";
import { listUpstream } from "./upstream.js";

export interface CheckOptions {
  /** Report this version only (it must be listed upstream and lie inside the window). */
  version?: string;
  /** Report the newest version inside the window only. */
  latest?: boolean;
  env: NodeJS.ProcessEnv;
  log: Logger;
  http: HttpClient;
  /** Where published state is read; default the spec's `target` registry repository. */
  target?: Target;
}

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
  rows: CheckRow[];
  /** Pairs whose assets are ambiguous (not published ones): `check` exits 65 when any. */
  ambiguities: Ambiguity[];
}

/**
 * `package check`: lists upstream, applies the window and the platforms' applicability, resolves
 * assets and reads what the target holds, then reports every pair. Downloads and pushes nothing.
 */
export async function runCheck(loaded: LoadedSpec, options: CheckOptions): Promise<CheckReport> {
  const { spec, specDir } = loaded;
  if (!spec.name || !spec.target || !spec.source) {
    throw new PkgError(ExitCode.Data, "the spec lacks name, target or source");
  }
  if (options.version !== undefined && options.latest) {
    throw new PkgError(ExitCode.Usage, "--version and --latest exclude each other");
  }
  const { env, log, http } = options;
  const bounds = await resolveBounds(spec.versions, { http, specDir, env, log });
  const upstream = await listUpstream(spec.source, {
    http,
    specDir,
    env,
    log,
    rateLimitMs: spec.concurrency?.rate_limit_ms ?? 0,
  });
  const skipPrereleases = spec.skip_prereleases ?? false;
  const inWindow = selectInWindow(upstream, bounds, { skipPrereleases });
  const newestFirst = inWindow
    .map((v) => ({ v, parsed: parseVersion(v.version) }))
    .sort((a, b) => compareVersions(b.parsed, a.parsed))
    .map(({ v }) => v);
  const chosen = chooseVersions(newestFirst, upstream, { ...options, skipPrereleases });

  const sets = assetSets(spec).map(compileAssetSet);
  const columns = checkColumns(sets);
  const plan = planPairs(chosen, columns, spec.platforms);
  const target =
    options.target ??
    openRegistry({ host: spec.target.registry, repository: spec.target.repository }, { env });
  const state = await readPublished(
    target,
    sets.map((set) => ({
      ...(set.variant === undefined ? {} : { variant: set.variant }),
      versions: versionsToAsk(plan, columns, set),
    })),
    { log },
  );
  const published = new Map<CompiledAssetSet, PublishedVersions>(
    sets.map((set, i) => [set, state.sets[i] ?? new Map()]),
  );
  const { rows, ambiguities } = checkRows(plan, columns, published);
  return {
    name: spec.name,
    target: target.displayName,
    versions_resolved: bounds,
    resolved: resolvedEdges(loaded, bounds),
    upstream_versions: upstream.length,
    columns: columns.map((c) => c.id),
    rows,
    ambiguities,
  };
}

function chooseVersions(
  newestFirst: UpstreamVersion[],
  upstream: readonly UpstreamVersion[],
  options: Pick<CheckOptions, "version" | "latest"> & { skipPrereleases: boolean },
): UpstreamVersion[] {
  if (options.latest) return newestFirst.slice(0, 1);
  if (options.version === undefined) return newestFirst;
  const key = versionKey(options.version);
  const match = (v: UpstreamVersion) =>
    v.version === options.version || (key !== undefined && versionKey(v.version) === key);
  const found = newestFirst.find(match);
  if (found) return [found];
  const listed = upstream.find(match);
  if (!listed) throw new PkgError(ExitCode.Data, `version ${options.version} is not listed upstream`);
  throw new PkgError(
    ExitCode.Data,
    listed.prerelease && options.skipPrereleases
      ? `version ${options.version} is a pre-release and skip_prereleases is set`
      : `version ${options.version} is outside the version window`,
  );
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
