import type { PairCell } from "../plan/pairs.js";
import { describeAmbiguity } from "../plan/resolve-assets.js";
import type { CheckReport } from "./check.js";
import { alignTable } from "./text-table.js";

const STATES = ["new", "missing", "untagged", "published", "absent", "excluded", "ambiguous"] as const;

function cellText(cell: PairCell | undefined): string {
  if (cell === undefined) return "-";
  if (cell.state === "excluded") return cell.reason ? `excluded: ${cell.reason}` : "excluded";
  return cell.state;
}

/**
 * The plain report: `resolved min|max` lines for the edges that were not literals, a table of
 * versions (newest first) by platforms, a count per state, and one line per ambiguity. A pair the
 * spec drops (outside the platform's window, a `skip` exclude) shows as `-`.
 */
export function formatCheckReport(report: CheckReport): string {
  const lines = report.resolved.map(
    (r) => `resolved ${r.edge} ${r.version} (${r.inclusive ? "inclusive" : "exclusive"})`,
  );
  if (report.rows.length === 0) {
    lines.push(`no versions to report (${report.upstream_versions} listed upstream)`);
    return lines.join("\n");
  }
  const table = [
    ["version", ...report.columns],
    ...report.rows.map((row) => [row.version, ...report.columns.map((id) => cellText(row.cells[id]))]),
  ];
  lines.push(...alignTable(table));
  const counts = new Map<string, number>();
  for (const row of report.rows) {
    for (const cell of Object.values(row.cells)) counts.set(cell.state, (counts.get(cell.state) ?? 0) + 1);
  }
  const summary = STATES.filter((s) => counts.has(s)).map((s) => `${counts.get(s)} ${s}`);
  const noun = report.rows.length === 1 ? "version" : "versions";
  lines.push(`${report.rows.length} ${noun}${summary.length > 0 ? `: ${summary.join(", ")}` : ""}`);
  for (const ambiguity of report.ambiguities) lines.push(`ambiguous: ${describeAmbiguity(ambiguity)}`);
  return lines.join("\n");
}
