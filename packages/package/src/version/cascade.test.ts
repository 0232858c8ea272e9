import { ExitCode } from "@pkg/common";
import { describe, expect, it } from "vitest";
import { parsePlatformKey } from "../platform/index.js";
import { foldCascade, planCascade, publicationOfTag } from "./cascade.js";
import { parseVersion } from "./grammar.js";
import { type BuildTimestamp, buildStamp, primaryTag } from "./tags.js";

const A = "linux/amd64";
const B = "darwin/arm64";
const at = new Date("2025-06-01T12:00:00Z");

function plan(
  version: string,
  platforms: string[],
  existing: Record<string, string[]>,
  options: { cascade?: boolean; variant?: string; buildTimestamp?: BuildTimestamp } = {},
) {
  const build = buildStamp(options.buildTimestamp ?? "datetime", at);
  return planCascade({
    version: { ...parseVersion(version), ...(build === undefined ? {} : { build }) },
    platforms: platforms.map((p) => parsePlatformKey(p)),
    existing: new Map(Object.entries(existing)),
    cascade: options.cascade ?? true,
    variant: options.variant,
  });
}

describe("planCascade", () => {
  it("points every tag at the first version of an empty repository", () => {
    expect(plan("1.2.3", [B, A], {})).toEqual([
      { tag: "1.2.3_20250601120000", role: "primary", platforms: [B, A] },
      { tag: "1.2.3", role: "exact", platforms: [B, A] },
      { tag: "1.2", role: "rolling", platforms: [B, A] },
      { tag: "1", role: "rolling", platforms: [B, A] },
      { tag: "latest", role: "rolling", platforms: [B, A] },
    ]);
  });

  it("lets a backfilled version take only the tags no newer version holds", () => {
    const existing = { "2.0.0": [A], "1.9.7": [A], "1.8.0": [A] };
    expect(plan("1.9.5", [A], existing).map((w) => w.tag)).toEqual(["1.9.5_20250601120000", "1.9.5"]);
    expect(plan("1.10.0", [A], existing).map((w) => w.tag)).toEqual([
      "1.10.0_20250601120000",
      "1.10.0",
      "1.10",
      "1",
    ]);
  });

  it("decides per platform: a newer version only blocks the platforms it carries", () => {
    const writes = plan("1.9.0", [A, B], { "2.0.0": [A] });
    expect(writes.find((w) => w.tag === "latest")).toEqual({
      tag: "latest",
      role: "rolling",
      platforms: [B],
    });
    expect(writes.find((w) => w.tag === "1")).toEqual({ tag: "1", role: "rolling", platforms: [B, A] });
  });

  it("treats libc-specific keys as platforms of their own", () => {
    const writes = plan("1.9.0", ["linux/amd64+libc.musl"], { "2.0.0": [A, "linux/amd64+libc.glibc"] });
    expect(writes.find((w) => w.tag === "latest")?.platforms).toEqual(["linux/amd64+libc.musl"]);
  });

  it("gives a pre-release its exact tag only, even in an empty repository", () => {
    expect(plan("2.1.0-rc1", [A], {})).toEqual([
      { tag: "2.1.0-rc1_20250601120000", role: "primary", platforms: [A] },
      { tag: "2.1.0-rc1", role: "exact", platforms: [A] },
    ]);
  });

  it("never lets a pre-release block a release", () => {
    const tags = plan("2.0.0", [A], { "2.0.1-rc1": [A], "3.0.0-beta": [A] }).map((w) => w.tag);
    expect(tags).toContain("2");
    expect(tags).toContain("latest");
  });

  it("re-points every tag on a rebuild of the newest version", () => {
    expect(plan("1.2.3", [A], { "1.2.3": [A], "1.2.2": [A] })).toHaveLength(5);
  });

  it("with build_timestamp none writes the bare tag once, under the exact tag's rule", () => {
    expect(plan("1.2.3", [A], {}, { buildTimestamp: "none" }).map((w) => [w.tag, w.role])).toEqual([
      ["1.2.3", "exact"],
      ["1.2", "rolling"],
      ["1", "rolling"],
      ["latest", "rolling"],
    ]);
    expect(plan("1.2.3", [A], { "2.0.0": [A] }, { buildTimestamp: "none" }).map((w) => w.tag)).toEqual([
      "1.2.3",
      "1.2",
      "1",
    ]);
  });

  it("with build_timestamp date names the build by its day", () => {
    expect(plan("1.2.3", [A], {}, { buildTimestamp: "date" })[0]?.tag).toBe("1.2.3_20250601");
  });

  it("with cascade off writes the primary and exact tags only", () => {
    expect(plan("3.0.0", [A, B], {}, { cascade: false })).toEqual([
      { tag: "3.0.0_20250601120000", role: "primary", platforms: [B, A] },
      { tag: "3.0.0", role: "exact", platforms: [B, A] },
    ]);
    expect(plan("3.0.0", [A], {}, { cascade: false, buildTimestamp: "none" })).toEqual([
      { tag: "3.0.0", role: "exact", platforms: [A] },
    ]);
  });

  it("prefixes a variant's tags and ends its cascade at the variant's name", () => {
    expect(plan("1.2.3", [A], { "1.3.0": [A] }, { variant: "debug" }).map((w) => w.tag)).toEqual([
      "debug-1.2.3_20250601120000",
      "debug-1.2.3",
      "debug-1.2",
    ]);
  });

  it("lets the tag of a two-component version name the newest of its series", () => {
    // upstream published 1.2 and then 1.2.1: `1.2` follows the series, 1.2 keeps its build tag
    expect(plan("1.2", [A], { "1.2.1": [A] }).map((w) => w.tag)).toEqual(["1.2_20250601120000"]);
    expect(plan("1.2.1", [A], { "1.2": [A] }).map((w) => w.tag)).toEqual([
      "1.2.1_20250601120000",
      "1.2.1",
      "1.2",
      "1",
      "latest",
    ]);
  });

  it("plans from the tag a push names", () => {
    const named = primaryTag(parseVersion("1.2.3-rc1"), "datetime", at, "debug");
    const writes = planCascade({
      ...publicationOfTag(named),
      platforms: [parsePlatformKey(A)],
      existing: new Map(),
      cascade: true,
    });
    expect(writes.map((w) => w.tag)).toEqual(["debug-1.2.3-rc1_20250601120000", "debug-1.2.3-rc1"]);
    expect(publicationOfTag("1.2")).toEqual({ version: { release: ["1", "2"] } });
    for (const tag of ["latest", "debug", "__pkg.desc", "nightly-x"]) {
      expect(() => publicationOfTag(tag)).toThrow(expect.objectContaining({ exitCode: ExitCode.Usage }));
    }
  });

  it("reads existing platform keys in any valid spelling", () => {
    expect(
      plan("1.0.0", ["linux/amd64+libc.musl"], { "2.0.0": ["linux/amd64+libc.musl"] }).map((w) => w.tag),
    ).not.toContain("latest");
  });
});

describe("foldCascade", () => {
  it("names, per tag and platform, the newest version of the tag's set", () => {
    const fold = foldCascade(new Map(Object.entries({ "2.0.0": [A], "1.9.0": [A, B], "2.1.0-rc1": [A, B] })));
    const plain = Object.fromEntries([...fold].map(([tag, entries]) => [tag, Object.fromEntries(entries)]));
    expect(plain).toEqual({
      "2.0.0": { [A]: "2.0.0" },
      "2.0": { [A]: "2.0.0" },
      "2": { [A]: "2.0.0" },
      latest: { [A]: "2.0.0", [B]: "1.9.0" },
      "1.9.0": { [A]: "1.9.0", [B]: "1.9.0" },
      "1.9": { [A]: "1.9.0", [B]: "1.9.0" },
      "1": { [A]: "1.9.0", [B]: "1.9.0" },
      "2.1.0-rc1": { [A]: "2.1.0-rc1", [B]: "2.1.0-rc1" },
    });
  });

  it("names a variant's tags with its prefix", () => {
    expect([...foldCascade(new Map([["1.0.0", [A]]]), "slim").keys()]).toEqual([
      "slim-1.0.0",
      "slim-1.0",
      "slim-1",
      "slim",
    ]);
  });
});
