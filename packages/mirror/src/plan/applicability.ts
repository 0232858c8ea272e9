import type { PlatformExclude } from "../spec/platform-exclude.js";
import type { PlatformLeg, Platforms } from "../spec/platforms.js";
import { compareVersionTexts, inTextWindow } from "./version-order.js";

/**
 * Whether a (version, platform) pair is wanted:
 * - `outside`: below the platform's `min_version` (inclusive) or at/above its `max_version`
 *   (exclusive); dropped silently;
 * - `excluded`: matched by an `exclude` entry (the first that matches): `broken` is kept for the
 *   report with its reason, `skip` is dropped silently.
 */
export type Applicability =
  | { status: "applicable" }
  | { status: "outside" }
  | { status: "excluded"; severity: PlatformExclude["severity"]; reason?: string };

type LegWindow = Pick<PlatformLeg, "min_version" | "max_version" | "exclude">;

export function platformApplicability(version: string, leg: LegWindow): Applicability {
  if (!inRange(version, leg.min_version, leg.max_version)) return { status: "outside" };
  const hit = leg.exclude.find((entry) => matchesExclude(version, entry));
  if (!hit) return { status: "applicable" };
  return {
    status: "excluded",
    severity: hit.severity,
    ...(hit.reason === undefined ? {} : { reason: hit.reason }),
  };
}

function matchesExclude(version: string, entry: PlatformExclude): boolean {
  if ("version" in entry) return compareVersionTexts(version, entry.version) === 0;
  return inRange(version, entry.min_version, entry.max_version);
}

/** min inclusive, max exclusive: the one rule of platform windows and exclude ranges. */
function inRange(version: string, min: string | undefined, max: string | undefined): boolean {
  return inTextWindow(version, { min, minInclusive: true, max, maxInclusive: false });
}

/** The platforms of one version: those to resolve, and those a broken exclude keeps for the report. */
export interface PlatformsOfVersion {
  applicable: string[];
  broken: Array<{ platform: string; reason?: string }>;
}

export function platformsOfVersion(version: string, platforms: Platforms): PlatformsOfVersion {
  const out: PlatformsOfVersion = { applicable: [], broken: [] };
  for (const [platform, leg] of Object.entries(platforms)) {
    const result = platformApplicability(version, leg);
    if (result.status === "applicable") out.applicable.push(platform);
    else if (result.status === "excluded" && result.severity === "broken") {
      out.broken.push({ platform, ...(result.reason === undefined ? {} : { reason: result.reason }) });
    }
  }
  return out;
}
