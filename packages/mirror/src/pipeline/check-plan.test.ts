import { describe, expect, it } from "vitest";
import { compileAssetSet } from "../plan/resolve-assets.js";
import type { UpstreamVersion } from "../sources/types.js";
import type { PlatformLeg } from "../spec/platforms.js";
import type { CheckReport } from "./check.js";
import { formatCheckReport } from "./check-format.js";
import { checkColumns, checkRows, planPairs, versionsToAsk } from "./check-plan.js";

const leg = (extra: Partial<PlatformLeg>): PlatformLeg => ({
  runner: ["r"],
  shell: "bash",
  prefix: [],
  exclude: [],
  ...extra,
});

function version(text: string, ...names: string[]): UpstreamVersion {
  return {
    version: text,
    prerelease: false,
    assets: names.map((name) => ({ name, url: `https://x/${name}` })),
  };
}

const gnu = compileAssetSet({ label: "gnu", assets: { "linux/amd64": ["amd64"], "linux/arm64": ["arm64"] } });
const musl = compileAssetSet({
  variant: "musl",
  label: "musl",
  assets: { "linux/amd64+libc.musl": ["musl"] },
});
const columns = checkColumns([gnu, musl]);
const platforms = {
  "linux/arm64": leg({
    min_version: "1.1.0",
    exclude: [
      { version: "1.3.0", severity: "broken", reason: "crashes" },
      { version: "1.4.0", severity: "skip" },
    ],
  }),
};
const versions = [
  version("1.4.0", "t-amd64", "t-arm64"),
  version("1.3.0", "t-amd64", "t-amd64.sig", "t-arm64", "t-musl"),
  version("1.2.0", "t-arm64"),
  version("1.0.0", "t-amd64", "t-arm64", "t-musl"),
];

describe("check rows", () => {
  const plan = planPairs(versions, columns, platforms);

  it("names a variant's columns by prefix", () => {
    expect(columns.map((c) => c.id)).toEqual(["linux/amd64", "linux/arm64", "musl:linux/amd64+libc.musl"]);
  });

  it("asks the target only about versions with a pair kept, per set", () => {
    expect(versionsToAsk(plan, columns, gnu)).toEqual(["1.4.0", "1.3.0", "1.2.0", "1.0.0"]);
    expect(versionsToAsk(plan, columns, musl)).toEqual(["1.4.0", "1.3.0", "1.2.0", "1.0.0"]);
  });

  it("gives each pair its state; published wins over what the spec says today", () => {
    const published = new Map([
      [gnu, new Map([["1.2.0", new Set(["linux/amd64", "linux/arm64"])]])],
      [musl, new Map([["1.0.0", new Set<string>()]])],
    ]);
    const { rows, ambiguities } = checkRows(plan, columns, published);
    expect(rows.map((r) => [r.version, columns.map((c) => r.cells[c.id] ?? null)])).toEqual([
      ["1.4.0", [{ state: "new" }, null, { state: "absent" }]],
      [
        "1.3.0",
        [
          { state: "ambiguous", candidates: ["t-amd64", "t-amd64.sig"] },
          { state: "excluded", reason: "crashes" },
          { state: "new" },
        ],
      ],
      ["1.2.0", [{ state: "published" }, { state: "published" }, { state: "absent" }]],
      ["1.0.0", [{ state: "new" }, null, { state: "missing" }]],
    ]);
    expect(ambiguities).toEqual([
      { version: "1.3.0", platform: "linux/amd64", variant: "gnu", candidates: ["t-amd64", "t-amd64.sig"] },
    ]);
  });
});

describe("untagged versions", () => {
  const two = [version("2.0.0", "t-amd64", "t-arm64"), version("1.9.0", "t-amd64", "t-arm64")];
  const plan = planPairs(two, columns, undefined);
  const state = (rows: ReturnType<typeof checkRows>["rows"]) =>
    rows.map((r) => [r.version, columns.map((c) => r.cells[c.id]?.state ?? null)]);

  it("marks the published pairs of a whole version that lacks its exact tag, and nothing else", () => {
    const published = new Map([
      [
        gnu,
        new Map([
          ["2.0.0", new Set(["linux/amd64", "linux/arm64"])],
          ["1.9.0", new Set(["linux/amd64"])],
        ]),
      ],
    ]);
    const untagged = new Map([[gnu, new Set(["2.0.0", "1.9.0"])]]);
    expect(state(checkRows(plan, columns, published, untagged).rows)).toEqual([
      ["2.0.0", ["untagged", "untagged", "absent"]],
      // 1.9.0 still lacks arm64: its tags come with that push
      ["1.9.0", ["published", "missing", "absent"]],
    ]);
  });

  it("a version whose other pairs are excluded or absent is whole", () => {
    const excluded = planPairs(two, columns, {
      "linux/arm64": leg({ exclude: [{ version: "1.9.0", severity: "broken" }] }),
    });
    const published = new Map([[gnu, new Map([["1.9.0", new Set(["linux/amd64"])]])]]);
    const untagged = new Map([[gnu, new Set(["1.9.0"])]]);
    expect(state(checkRows(excluded, columns, published, untagged).rows)[1]).toEqual([
      "1.9.0",
      ["untagged", "excluded", "absent"],
    ]);
  });
});

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
