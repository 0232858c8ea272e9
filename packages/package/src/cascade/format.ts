import type { AliasRow, PlatformFinding } from "./audit.js";
import type { CascadeCheckReport } from "./check.js";
import type { RepairOutcome, RepairReport } from "./repair.js";

const short = (digest: string) => digest.slice(0, 19);
const heldText = (held: PlatformFinding["held"][number]) => held.version ?? short(held.digest);

function platformText(p: PlatformFinding): string | undefined {
  const expected = p.expected ? `expected ${p.expected.version}` : "";
  switch (p.state) {
    case "ok":
      return undefined;
    case "absent":
      return `${p.platform} absent (${expected})`;
    case "wrong":
      return `${p.platform} holds ${p.held.map(heldText).join(", ")}, ${expected}`;
    case "duplicate":
      return `${p.platform} listed ${p.held.length} times (${p.held.map(heldText).join(", ")}), ${expected}`;
    case "orphan":
      return `${p.platform} holds ${p.held.map(heldText).join(", ")}, which no version of the series carries`;
  }
}

/** One line per row: tag, status, what is wrong, and why it cannot be repaired. */
export function rowLines(rows: readonly AliasRow[]): string[] {
  const width = Math.max(3, ...rows.map((r) => r.tag.length));
  return rows.map((row) => {
    const details = row.platforms.flatMap((p) => platformText(p) ?? []);
    if (row.status === "orphan" && row.platforms.length === 0) details.push("no version stands behind it");
    if (row.unrepairable)
      details.push(`unrepairable (${row.unrepairable.reason}): ${row.unrepairable.detail}`);
    const text = details.length > 0 ? `  ${details.join("; ")}` : "";
    return `${row.tag.padEnd(width)}  ${row.status.padEnd(9)}${text}`.trimEnd();
  });
}

export function checkSummary(report: CascadeCheckReport): string {
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  const findings =
    report.findings === 0
      ? "clean"
      : `${count(report.findings, "finding")}${report.unrepairable > 0 ? ` (${report.unrepairable} unrepairable)` : ""}`;
  const heldOut =
    report.held_out === undefined ? "" : ` (${report.held_out.join(", ")} held out as incomplete)`;
  return `${report.repository}: ${count(report.leaves, "leaf version")}${heldOut}, ${count(report.rows.length, "rolling tag")}: ${findings}`;
}

function outcomeText(outcome: RepairOutcome): string {
  switch (outcome.outcome) {
    case "written":
      return `written ${short(outcome.digest)} (read back)`;
    case "raced":
      return outcome.wrote
        ? `raced: written, but the tag then held ${outcome.live ?? "nothing"}`
        : `raced: moved since it was read (now ${outcome.live ? short(outcome.live) : "absent"}); not written`;
    case "refused":
      return `refused (${outcome.reason})`;
    case "failed":
      return `failed: ${outcome.error}`;
  }
}

export function repairLines(report: RepairReport): string[] {
  if (report.dry_run) {
    const refused = report.planned.filter((p) => p.refused !== undefined).length;
    const lines = report.planned.map((p) =>
      p.refused
        ? `${p.tag}  would refuse (${p.refused})`
        : `${p.tag}  would write ${short(p.index_digest ?? "")}`,
    );
    lines.push(
      `dry run: ${report.planned.length - refused} to rewrite, ${refused} unrepairable; nothing written`,
    );
    return lines;
  }
  const width = Math.max(3, ...report.outcomes.map((o) => o.tag.length));
  const lines = report.outcomes.map((o) => `${o.tag.padEnd(width)}  ${outcomeText(o)}`);
  lines.push(
    report.planned.length === 0
      ? "nothing to repair"
      : `repaired ${report.moved_tags.length} of ${report.planned.length}; ${report.remaining} remain`,
  );
  return lines;
}
