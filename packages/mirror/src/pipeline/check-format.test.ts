import { describe, expect, it } from "vitest";
import type { CheckReport } from "./check.js";
import { formatCheckReport } from "./check-format.js";

describe("formatCheckReport", () => {
  const base: CheckReport = {
    name: "tool",
    target: "r/acme/tool",
    versions_resolved: { min: "1.0.0", min_inclusive: true, max: "2.0.0", max_inclusive: false },
    resolved: [{ edge: "max", version: "2.0.0", inclusive: false }],
    upstream_versions: 3,
    columns: ["linux/amd64", "linux/arm64"],
    rows: [
      { version: "1.3.0", prerelease: false, cells: { "linux/amd64": { state: "new" } } },
      {
        version: "1.2.0",
        prerelease: false,
        cells: {
          "linux/amd64": { state: "ambiguous", candidates: ["a", "b"] },
          "linux/arm64": { state: "excluded", reason: "crashes" },
        },
      },
    ],
    ambiguities: [{ version: "1.2.0", platform: "linux/amd64", variant: "default", candidates: ["a", "b"] }],
    published_reads: { tags: 4, summary: "used", summary_hits: 2, index_reads: 0 },
  };

  it("prints the resolved edge, the table, the counts and the ambiguities", () => {
    expect(formatCheckReport(base)).toBe(
      [
        "resolved max 2.0.0 (exclusive)",
        "version  linux/amd64  linux/arm64",
        "1.3.0    new          -",
        "1.2.0    ambiguous    excluded: crashes",
        "2 versions: 1 new, 1 excluded, 1 ambiguous",
        "ambiguous: version 1.2.0 platform linux/amd64: the assets regexes match 2 assets: a, b",
      ].join("\n"),
    );
  });

  it("says so when no version is left to report", () => {
    expect(formatCheckReport({ ...base, resolved: [], rows: [], ambiguities: [] })).toBe(
      "no versions to report (3 listed upstream)",
    );
  });
});
