import type { ResolvedBounds } from "../../plan/window.js";
import type { PlanVersion } from "../documents/plan-document.js";
import { alignTable } from "../text-table.js";
import type { PipelinePlan } from "./document.js";

/**
 * The plain report of a plan: the target, the resolved window, a table `version kind platforms`
 * (or `nothing to do: target is up to date`), then the pairs held out by `broken` excludes and
 * those refused, versions owing only their tags, versions left to later runs, and a closing line
 * when published metadata drifted.
 */
export function formatPlan({ document, owesTags, later }: PipelinePlan): string {
  const lines = [`target: ${document.target}`];
  if (document.pkg_mirror_rev !== undefined) lines.push(`pkg_mirror_rev: ${document.pkg_mirror_rev}`);
  lines.push(...boundLines(document.versions_resolved));
  const { versions } = document;
  if (versions.length === 0 && owesTags.length === 0 && later.length === 0) {
    lines.push("nothing to do: target is up to date");
    return lines.join("\n");
  }
  if (versions.length > 0)
    lines.push(...alignTable([["version", "kind", "platforms"], ...versions.map(row)]));
  for (const v of versions) {
    for (const { platform, reason } of v.excluded ?? [])
      lines.push(`excluded: ${v.version} ${platform}${reason === undefined ? "" : `: ${reason}`}`);
    for (const { platform, message } of v.refused ?? [])
      lines.push(`refused: ${v.version} ${platform}: ${message}`);
  }
  for (const tag of owesTags) lines.push(`owes tags: ${tag}: run pkg-mirror package pipeline cascade`);
  if (later.length > 0) lines.push(`left for later runs (versions.new_per_run): ${later.join(", ")}`);
  const drifted = versions.filter((v) => v.kind === "metadata-drift").length;
  if (drifted > 0) {
    lines.push(
      `${drifted} published version${drifted === 1 ? " carries" : "s carry"} metadata the spec has since changed: correct ${drifted === 1 ? "it" : "them"} with pkg-mirror package pipeline patch`,
    );
  }
  return lines.join("\n");
}

function boundLines(bounds: ResolvedBounds): string[] {
  const line = (edge: "min" | "max", version: string | undefined, inclusive: boolean) =>
    version === undefined
      ? `resolved ${edge} unbounded`
      : `resolved ${edge} ${version} (${inclusive ? "inclusive" : "exclusive"})`;
  return [line("min", bounds.min, bounds.min_inclusive), line("max", bounds.max, bounds.max_inclusive)];
}

function row(v: PlanVersion): string[] {
  const platforms =
    v.kind === "metadata-drift"
      ? (v.drift ?? []).map(({ platform, fields }) => `${platform} (${fields.join(", ")})`)
      : v.platforms;
  return [v.version, v.kind, platforms.length === 0 ? "-" : platforms.join(", ")];
}
