import type { Logger } from "@pkg/common";
import { parseVersion, type VersionWindow } from "@pkg/package";
import type { Versions } from "../spec/versions.js";
import { type BoundDeps, type BoundEdge, describeOrigin, readBoundValue } from "./bound-value.js";
import { inTextWindow, type TextWindow } from "./version-order.js";

/**
 * The version window of one run, in the shape `plan.json` publishes as `versions_resolved`: an
 * unset edge has no version key, the inclusivity flags always travel (an unset edge keeps the
 * meaning of a bare string: min inclusive, max exclusive).
 */
export interface ResolvedBounds {
  min?: string;
  min_inclusive: boolean;
  max?: string;
  max_inclusive: boolean;
}

/**
 * Resolves `versions.min` / `versions.max` once for the run (literals as written; url, generator
 * and file forms read now, see `readBoundValue`). Each non-literal edge is logged at info once.
 * Any failure is exit 69: the run never falls back to an unbounded window.
 */
export async function resolveBounds(
  versions: Versions | undefined,
  deps: BoundDeps & { log: Logger },
): Promise<ResolvedBounds> {
  const [min, max] = await Promise.all(
    (["min", "max"] as const).map((edge) => resolveEdge(edge, versions, deps)),
  );
  return {
    ...(min === undefined ? {} : { min }),
    min_inclusive: versions?.min?.inclusive ?? true,
    ...(max === undefined ? {} : { max }),
    max_inclusive: versions?.max?.inclusive ?? false,
  };
}

async function resolveEdge(
  edge: BoundEdge,
  versions: Versions | undefined,
  deps: BoundDeps & { log: Logger },
): Promise<string | undefined> {
  const bound = versions?.[edge]?.version;
  if (bound === undefined) return undefined;
  const value = await readBoundValue(edge, bound, deps);
  if (typeof bound !== "string")
    deps.log.info(`versions.${edge} resolved to ${value} (from ${describeOrigin(bound)})`);
  return value;
}

/** The bounds as a window of the tools' version grammar. */
export function versionWindow(bounds: ResolvedBounds): VersionWindow {
  return {
    ...(bounds.min === undefined ? {} : { min: parseVersion(bounds.min) }),
    minInclusive: bounds.min_inclusive,
    ...(bounds.max === undefined ? {} : { max: parseVersion(bounds.max) }),
    maxInclusive: bounds.max_inclusive,
  };
}

/** The bounds as version texts (see `inTextWindow`). */
function textWindow(bounds: ResolvedBounds): TextWindow {
  return {
    min: bounds.min,
    minInclusive: bounds.min_inclusive,
    max: bounds.max,
    maxInclusive: bounds.max_inclusive,
  };
}

/** Whether `version` lies inside the resolved window. */
export function isInBounds(version: string, bounds: ResolvedBounds): boolean {
  return inTextWindow(version, textWindow(bounds));
}

/**
 * The candidates a run considers: inside the window, and not pre-releases when
 * `skip_prereleases` is set. Order is kept.
 */
export function selectInWindow<T extends { version: string; prerelease: boolean }>(
  candidates: readonly T[],
  bounds: ResolvedBounds,
  options: { skipPrereleases: boolean },
): T[] {
  const window = textWindow(bounds);
  return candidates.filter(
    (c) => !(options.skipPrereleases && c.prerelease) && inTextWindow(c.version, window),
  );
}
