import { compareVersions } from "./compare.js";
import { type Version, withoutBuild } from "./grammar.js";

/**
 * A version window. `versions.min` / `versions.max` of the spec (a bare string is an inclusive
 * min and an exclusive max; the object form sets inclusivity) and `platforms.<p>.min_version`
 * (inclusive) / `max_version` (exclusive) all become one of these. Bounds compare in the total
 * order of `compareVersions`, so a pre-release sits below its release: `max: 2.0.0` (exclusive)
 * admits `2.0.0-rc1`. Builds are ignored: a build is inside when its version is. An absent
 * inclusivity flag means what a bare string means: min inclusive, max exclusive.
 */
export interface VersionWindow {
  min?: Version;
  minInclusive?: boolean;
  max?: Version;
  maxInclusive?: boolean;
}

export function inWindow(version: Version, window: VersionWindow): boolean {
  const bare = withoutBuild(version);
  if (window.min !== undefined) {
    const order = compareVersions(bare, window.min);
    if (order < 0 || (order === 0 && window.minInclusive === false)) return false;
  }
  if (window.max !== undefined) {
    const order = compareVersions(bare, window.max);
    if (order > 0 || (order === 0 && window.maxInclusive !== true)) return false;
  }
  return true;
}

/** One `platforms.<p>.exclude` entry: a single version, or a range (min inclusive, max exclusive). */
export type VersionExclusion = { version: Version } | { min?: Version; max?: Version };

/**
 * Whether a (version, platform) pair is applicable: inside the platform's window
 * (`min_version` inclusive, `max_version` exclusive) and matched by no exclude entry.
 */
export function isApplicable(
  version: Version,
  platform: { min?: Version; max?: Version; exclude?: readonly VersionExclusion[] },
): boolean {
  if (!inWindow(version, { min: platform.min, minInclusive: true, max: platform.max, maxInclusive: false })) {
    return false;
  }
  return !(platform.exclude ?? []).some((entry) =>
    "version" in entry
      ? compareVersions(withoutBuild(version), entry.version) === 0
      : inWindow(version, { min: entry.min, minInclusive: true, max: entry.max, maxInclusive: false }),
  );
}
