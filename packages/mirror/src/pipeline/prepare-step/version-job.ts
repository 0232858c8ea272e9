import { parseVersion } from "@pkg/package";
import type { PairJob, VersionJob } from "../../plan/jobs.js";
import type { PlanVersion } from "../documents/plan-document.js";

/** The column id a pair's work directory is named by: the platform key, `<variant>:`-prefixed for a variant's. */
const columnOf = (platform: string, variant: string | undefined) =>
  variant === undefined ? platform : `${variant}:${platform}`;

/**
 * A plan entry as the engine's job: its assets become the pairs to build (nothing is listed
 * upstream again), its refused pairs fail without being built, and the platforms earlier runs
 * published join the version's tags when this run makes it whole. The plan's `version` is the
 * primary tag it is pushed under.
 */
export function versionJobOf(entry: PlanVersion): VersionJob {
  const { variant } = entry;
  const pairs: PairJob[] = entry.assets.map((asset) => ({
    version: entry.source_version,
    platform: asset.platform,
    ...(variant === undefined ? {} : { variant }),
    column: columnOf(asset.platform, variant),
    asset: {
      name: asset.asset_name,
      url: asset.url,
      ...(asset.digest === undefined ? {} : { digest: asset.digest }),
    },
  }));
  return {
    version: entry.source_version,
    prerelease: parseVersion(entry.source_version).prerelease !== undefined,
    ...(variant === undefined ? {} : { variant }),
    primary_tag: entry.version,
    pairs,
    refused: (entry.refused ?? []).map((r) => ({ ...r, column: columnOf(r.platform, variant) })),
    skipped: [],
    carried: entry.carried ?? [],
    ...(entry.own_tags === undefined ? {} : { own_tags: entry.own_tags }),
    retag: false,
  };
}
