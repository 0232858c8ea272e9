import { describe, expect, it } from "vitest";
import type { UpstreamVersion } from "../sources/types.js";
import type { PlatformLeg } from "../spec/platforms.js";
import { pairColumns, pairRows, planPairs, versionsToAsk } from "./pairs.js";
import { compileAssetSet } from "./resolve-assets.js";

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
const columns = pairColumns([gnu, musl]);
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

describe("pair rows", () => {
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
    const { rows, ambiguities } = pairRows(plan, columns, published);
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
  const state = (rows: ReturnType<typeof pairRows>["rows"]) =>
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
    expect(state(pairRows(plan, columns, published, untagged).rows)).toEqual([
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
    expect(state(pairRows(excluded, columns, published, untagged).rows)[1]).toEqual([
      "1.9.0",
      ["untagged", "excluded", "absent"],
    ]);
  });
});
