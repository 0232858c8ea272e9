import type { Logger } from "@pkg/common";
import type { Target } from "@pkg/oci";
import { describePackage } from "@pkg/package/describe";
import type { RunnableSpec } from "../../plan/plan-run.js";
import { DEFAULT_README } from "../../spec/catalog.js";

export interface DescribeOutcome {
  repository: string;
  /**
   * `published`: the description was pushed; `unchanged`: the target held the same README and
   * logo already (nothing pushed); `nothing_to_describe`: no README (no `catalog.readme` and no
   * CATALOG.md beside the spec).
   */
  status: "published" | "unchanged" | "nothing_to_describe";
  /** The files published (absolute paths). */
  readme?: string;
  logo?: string;
  /** The `__pkg.desc` manifest. */
  digest?: string;
}

/**
 * `pipeline describe`: the spec's `catalog.readme` (default CATALOG.md) and logo (`catalog.logo`,
 * else `logo.svg` then `logo.png`), both beside the spec, published as the target's `__pkg.desc`
 * description through `pkg package describe`'s machinery, unless the target holds the same one.
 * The index picks the description up on the next announce.
 */
export async function describeStep(
  spec: RunnableSpec,
  target: Target,
  log: Logger,
): Promise<DescribeOutcome> {
  const catalog = spec.catalog;
  const base = { repository: target.displayName };
  if (catalog?.readme_file === undefined) {
    log.info(
      `no ${catalog?.readme ?? DEFAULT_README} beside the spec: nothing to describe for ${target.displayName}`,
    );
    return { ...base, status: "nothing_to_describe" };
  }
  const files = {
    readme: catalog.readme_file,
    ...(catalog.logo_file === undefined ? {} : { logo: catalog.logo_file }),
  };
  const report = await describePackage(target, {
    readmePath: catalog.readme_file,
    ...(catalog.logo_file === undefined ? {} : { logoPath: catalog.logo_file }),
  });
  log.info(
    report.status === "unchanged"
      ? `${target.displayName}: description unchanged (${report.manifestDigest.slice(0, 19)}); nothing pushed`
      : `${target.displayName}: description published (${[catalog.readme, catalog.logo].filter(Boolean).join(", ")}) -> ${report.manifestDigest.slice(0, 19)}`,
  );
  return { ...base, status: report.status, ...files, digest: report.manifestDigest };
}
