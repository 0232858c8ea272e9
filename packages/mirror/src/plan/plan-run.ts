import { ExitCode, isPkgError, type Logger, PkgError } from "@pkg/common";
import type { HttpClient } from "@pkg/net";
import { openRegistry, readOnly, type Target } from "@pkg/oci";
import { taggableVersions } from "../sources/python-versions.js";
import type { UpstreamVersion } from "../sources/types.js";
import { DEFAULT_CASCADE } from "../spec/cascade.js";
import type { LoadedSpec } from "../spec/loader.js";
import type { MirrorSpec } from "../spec/mirror-spec.js";
import {
  type PairColumn,
  type PairPlan,
  type PairRow,
  pairColumns,
  pairRows,
  planPairs,
  versionsToAsk,
} from "./pairs.js";
import { type PublishedState, type PublishedVersions, readPublished } from "./published.js";
import { versionKey } from "./record-tags.js";
import { type Ambiguity, assetSets, type CompiledAssetSet, compileAssetSet } from "./resolve-assets.js";
import { listUpstream } from "./upstream.js";
import { compareVersionTexts } from "./version-order.js";
import { type ResolvedBounds, resolveBounds, selectInWindow } from "./window.js";

export interface PlanRunOptions {
  /** This version only (it must be listed upstream and lie inside the window). */
  version?: string;
  /** The newest release (never a pre-release, whatever `skip_prereleases` says) inside the window only. */
  latest?: boolean;
  env: NodeJS.ProcessEnv;
  log: Logger;
  http: HttpClient;
  /** Where published state is read; default the spec's `target` registry repository. */
  target?: Target;
  /** Ignore the published summary and read every version's index. */
  verifyPublished?: boolean;
}

/** A spec with the keys every run needs. */
export type RunnableSpec = MirrorSpec & Required<Pick<MirrorSpec, "name" | "target" | "source">>;

/** Everything `package check` and `package sync` decide before downloading anything. */
export interface RunPlan {
  spec: RunnableSpec;
  target: Target;
  bounds: ResolvedBounds;
  /** Versions the source listed, before the window. */
  upstreamCount: number;
  columns: PairColumn[];
  /** The chosen versions (newest first) and what the spec wants of each pair. */
  plan: PairPlan;
  published: Map<CompiledAssetSet, PublishedVersions>;
  /** How the published state was learnt: tags listed, summary use, index reads. */
  publishedReads: Omit<PublishedState, "sets" | "untagged" | "ownTags">;
  /**
   * With the cascade on, per asset set, the versions owing their exact and rolling tags (see
   * `untaggedVersions`); empty with the cascade off.
   */
  untagged: Map<CompiledAssetSet, ReadonlySet<string>>;
  /** Per asset set, each published version's own tags, oldest first (see `versionOwnTags`). */
  ownTags: Map<CompiledAssetSet, ReadonlyMap<string, readonly string[]>>;
  /** Newest first, one per chosen version. */
  rows: PairRow[];
  ambiguities: Ambiguity[];
}

export function runnableSpec(spec: MirrorSpec): RunnableSpec {
  const { name, target, source } = spec;
  if (!name || !target || !source) throw new PkgError(ExitCode.Data, "the spec lacks name, target or source");
  return { ...spec, name, target, source };
}

/**
 * Lists upstream, applies the window and the platforms' applicability, resolves assets and reads
 * what the target holds: the plan both `check` (which reports it) and `sync` (which carries it
 * out) work from.
 */
export async function planRun(loaded: LoadedSpec, options: PlanRunOptions): Promise<RunPlan> {
  try {
    return await planRunOnce(loaded, options);
  } catch (error) {
    throw unavailableWhenTransient(error);
  }
}

/**
 * A registry read that stayed transient through its retries (75) fails the plan as unavailable
 * (69): planning is not retried like a push, and what it could not read it never guesses.
 */
export function unavailableWhenTransient(error: unknown): unknown {
  if (!isPkgError(error) || error.exitCode !== ExitCode.Transient) return error;
  return new PkgError(ExitCode.Unavailable, error.message, {
    cause: error,
    ...(error.detail === undefined ? {} : { detail: error.detail }),
  });
}

async function planRunOnce(loaded: LoadedSpec, options: PlanRunOptions): Promise<RunPlan> {
  const spec = runnableSpec(loaded.spec);
  const { specDir } = loaded;
  if (options.version !== undefined && options.latest) {
    throw new PkgError(ExitCode.Usage, "--version and --latest exclude each other");
  }
  const { env, log, http } = options;
  const bounds = await resolveBounds(spec.versions, { http, specDir, env, log });
  const listed = await listUpstream(spec.source, {
    http,
    specDir,
    repoRoot: loaded.repoRoot,
    env,
    log,
    rateLimitMs: spec.concurrency?.rate_limit_ms ?? 0,
  });
  const skipPrereleases = spec.skip_prereleases ?? false;
  // an index lists PEP 440 versions the package grammar may not tag (pre-, post-, dev releases)
  const upstream =
    spec.source.type === "pypi"
      ? taggableVersions(
          listed,
          `pypi ${spec.source.package ?? spec.name}`,
          log,
          (v) => skipPrereleases && v.prerelease,
        )
      : listed;
  // --latest wants releases only: pre-releases are left out here whatever skip_prereleases says
  const inWindow = selectInWindow(upstream, bounds, {
    skipPrereleases: skipPrereleases || options.latest === true,
  });
  const newestFirst = [...inWindow].sort((a, b) => compareVersionTexts(b.version, a.version));
  const chosen = chooseVersions(newestFirst, upstream, { ...options, skipPrereleases });
  if (options.latest && chosen.length === 0) {
    const prereleases = selectInWindow(upstream, bounds, { skipPrereleases: false }).length;
    if (prereleases > 0) {
      log.info(
        `--latest: nothing to do: the version window holds pre-releases only (${prereleases}), no release`,
      );
    }
  }

  const sets = assetSets(spec).map(compileAssetSet);
  const columns = pairColumns(sets);
  const plan = planPairs(chosen, columns, spec.platforms);
  const target =
    options.target ??
    openRegistry({ host: spec.target.registry, repository: spec.target.repository }, { env });
  const {
    sets: publishedSets,
    untagged,
    ownTags,
    ...publishedReads
  } = await readPublished(
    // planning only reads: a write through this view is not even reachable
    readOnly(target),
    sets.map((set) => ({
      ...(set.variant === undefined ? {} : { variant: set.variant }),
      versions: versionsToAsk(plan, columns, set),
    })),
    { log, verifyPublished: options.verifyPublished === true },
  );
  const published = new Map<CompiledAssetSet, PublishedVersions>(
    sets.map((set, i) => [set, publishedSets[i] ?? new Map()]),
  );
  // with the cascade off no version is owed exact or rolling tags
  const owing = new Map<CompiledAssetSet, ReadonlySet<string>>(
    (spec.cascade ?? DEFAULT_CASCADE).enabled ? sets.map((set, i) => [set, untagged[i] ?? new Set()]) : [],
  );
  const { rows, ambiguities } = pairRows(plan, columns, published, owing);
  return {
    spec,
    target,
    bounds,
    upstreamCount: upstream.length,
    columns,
    plan,
    published,
    publishedReads,
    untagged: owing,
    ownTags: new Map(sets.map((set, i) => [set, ownTags[i] ?? new Map()])),
    rows,
    ambiguities,
  };
}

function chooseVersions(
  newestFirst: UpstreamVersion[],
  upstream: readonly UpstreamVersion[],
  options: Pick<PlanRunOptions, "version" | "latest"> & { skipPrereleases: boolean },
): UpstreamVersion[] {
  // with --latest, `newestFirst` holds releases only
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
