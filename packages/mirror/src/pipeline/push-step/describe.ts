import type { RunSummary } from "../documents/run-summary.js";

/** The run summary as a few lines for a terminal or a CI log. */
export function describePushOutcome(summary: RunSummary): string {
  if (summary.versions.length === 0) return `${summary.target}: nothing prepared, nothing pushed`;
  const lines = summary.versions.map((v) => {
    const parts = [`${v.version}: ${v.status}`];
    if (v.platforms_pushed.length > 0) parts.push(`pushed ${v.platforms_pushed.join(", ")}`);
    for (const f of v.platforms_failed) parts.push(`${f.platform} ${f.reason}: ${f.message}`);
    for (const e of v.platforms_excluded)
      parts.push(`${e.platform} excluded${e.reason ? `: ${e.reason}` : ""}`);
    if (v.cascade_tags_written.length > 0) parts.push(`tags ${v.cascade_tags_written.join(", ")}`);
    return parts.join("; ");
  });
  if (summary.announce) {
    const a = summary.announce;
    lines.push(
      `announce ${a.package}: ${a.status}${a.error ? `: ${a.error}` : ""}${a.tags ? ` (${a.tags.join(", ")})` : ""}`,
    );
  }
  return lines.join("\n");
}
