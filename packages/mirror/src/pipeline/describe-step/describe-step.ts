import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "@pkg/common";
import type { Target } from "@pkg/oci";
import { describePackage } from "@pkg/package/describe";
import type { RunnableSpec } from "../../plan/plan-run.js";
import { DEFAULT_README } from "../../spec/catalog.js";
import { type RootWheelOptions, rootWheelReadme } from "./root-wheel.js";

export interface DescribeOutcome {
  repository: string;
  /**
   * `published`: the description was pushed; `unchanged`: the target held the same README and
   * logo already (nothing pushed); `nothing_to_describe`: no README (no `catalog.readme` and no
   * CATALOG.md beside the spec, and for a Python source no root wheel to generate one from).
   */
  status: "published" | "unchanged" | "nothing_to_describe";
  /** The files published (absolute paths); a README generated from the root wheel is `generated`. */
  readme?: string;
  generated?: true;
  logo?: string;
  /** The `__pkg.desc` manifest. */
  digest?: string;
}

/**
 * `pipeline describe`: the spec's `catalog.readme` (default CATALOG.md) and logo (`catalog.logo`,
 * else `logo.svg` then `logo.png`), both beside the spec, published as the target's `__pkg.desc`
 * description through `pkg package describe`'s machinery, unless the target holds the same one.
 * A Python source without a README gets one generated from its root wheel (`python` options). The
 * index picks the description up on the next announce.
 */
export async function describeStep(
  spec: RunnableSpec,
  target: Target,
  log: Logger,
  python?: RootWheelOptions,
): Promise<DescribeOutcome> {
  const catalog = spec.catalog;
  const base = { repository: target.displayName };
  const logo = catalog?.logo_file;
  if (catalog?.readme_file !== undefined)
    return publish(target, log, { ...base, readme: catalog.readme_file, ...(logo ? { logo } : {}) });
  const generated = python === undefined ? undefined : await rootWheelReadme(spec, python);
  if (generated === undefined) {
    log.info(
      `no ${catalog?.readme ?? DEFAULT_README} beside the spec: nothing to describe for ${target.displayName}`,
    );
    return { ...base, status: "nothing_to_describe" };
  }
  // written where nobody else writes, removed once published
  const scratch = await mkdtemp(join(tmpdir(), "pkg-mirror-readme-"));
  try {
    const readme = join(scratch, DEFAULT_README);
    await writeFile(readme, generated);
    const outcome = await publish(target, log, { ...base, readme, ...(logo ? { logo } : {}) });
    const { readme: _temporary, ...rest } = outcome;
    return { ...rest, generated: true };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function publish(
  target: Target,
  log: Logger,
  files: { repository: string; readme: string; logo?: string },
): Promise<DescribeOutcome> {
  const report = await describePackage(target, {
    readmePath: files.readme,
    ...(files.logo === undefined ? {} : { logoPath: files.logo }),
  });
  log.info(
    report.status === "unchanged"
      ? `${target.displayName}: description unchanged (${report.manifestDigest.slice(0, 19)}); nothing pushed`
      : `${target.displayName}: description published -> ${report.manifestDigest.slice(0, 19)}`,
  );
  return { ...files, status: report.status, digest: report.manifestDigest };
}
