import { describe, expect, it } from "vitest";
import { recordTagsToRead, untaggedVersions, versionKey, versionOwnTags } from "./record-tags.js";

const cases: Array<{
  rule: string;
  tags: string[];
  variant?: string;
  wanted: string[];
  reads: Record<string, string[]>;
}> = [
  {
    rule: "the exact tag is the one read; rolling tags and other versions' tags are not",
    tags: ["1.2.3", "1.2.3_20250101120000", "1.2", "1", "latest", "1.2.2", "__pkg.desc"],
    wanted: ["1.2.3"],
    reads: { "1.2.3": ["1.2.3"] },
  },
  {
    rule: "a wanted version without any tag is unpublished and costs no read",
    tags: ["1.2.3", "latest"],
    wanted: ["1.2.4", "1.2.3"],
    reads: { "1.2.3": ["1.2.3"] },
  },
  {
    rule: "without an exact tag every primary tag is read (one per push run)",
    tags: ["1.2.3_20250101120000", "1.2.3_20250301000000", "1.2.4_20250101"],
    wanted: ["1.2.3"],
    reads: { "1.2.3": ["1.2.3_20250101120000", "1.2.3_20250301000000"] },
  },
  {
    rule: "a longer release under the exact tag (1.2.3.4): the version's own primary tags are read",
    tags: ["1.2.3", "1.2.3_20250101120000", "1.2.3.4", "1.2.3.4_20250201120000"],
    wanted: ["1.2.3", "1.2.3.4"],
    reads: { "1.2.3": ["1.2.3_20250101120000"], "1.2.3.4": ["1.2.3.4"] },
  },
  {
    rule: "a two-component version is read from its tag, or its primaries once a 1.2.x exists",
    tags: ["1.2", "1.2_20250101", "1.3", "1.2.1"],
    wanted: ["1.2", "1.3"],
    reads: { "1.2": ["1.2_20250101"], "1.3": ["1.3"] },
  },
  {
    rule: "with no primary to fall back on, the exact tag is read even when extended",
    tags: ["1.2", "1.2.1"],
    wanted: ["1.2"],
    reads: { "1.2": ["1.2"] },
  },
  {
    rule: "a pre-release's exact tag stands for it alone",
    tags: ["1.2.3-rc1", "1.2.3-rc1_20250101120000", "1.2.3"],
    wanted: ["1.2.3-rc1"],
    reads: { "1.2.3-rc1": ["1.2.3-rc1"] },
  },
  {
    rule: "a variant reads its prefixed tags only",
    tags: ["1.2.3", "musl-1.2.3", "musl-1.2.3_20250101120000", "musl"],
    variant: "musl",
    wanted: ["1.2.3"],
    reads: { "1.2.3": ["musl-1.2.3"] },
  },
  {
    rule: "the unprefixed set ignores the variants' tags",
    tags: ["musl-1.2.3"],
    wanted: ["1.2.3"],
    reads: {},
  },
  {
    rule: "an upstream text that is no tag version (v-prefixed) is never published",
    tags: ["1.2.3"],
    wanted: ["v1.2.3"],
    reads: {},
  },
];

describe("recordTagsToRead", () => {
  it.each(cases)("$rule", ({ tags, variant, wanted, reads }) => {
    expect(Object.fromEntries(recordTagsToRead(tags, variant, wanted))).toEqual(reads);
  });

  it("keys versions by their tag spelling", () => {
    expect(versionKey("1.2.3-rc.1")).toBe("1.2.3-rc.1");
    expect(versionKey("v1")).toBeUndefined();
  });
});

describe("untaggedVersions", () => {
  const tags = [
    "1.0.0",
    "1.0.0_20250101120000",
    "1.1.0_20250101120000",
    "1.1.0_20250201120000",
    "1.2.3_20250101120000",
    "1.2.3.4_20250101120000",
    "1.2.3.4",
    "2.0.0-rc1_20250101120000",
    "3.0.0",
    "musl-1.1.0_20250101120000",
  ];

  it("names the wanted versions with build tags and no exact tag, pre-releases included, each with its newest build tag", () => {
    const wanted = ["1.0.0", "1.1.0", "2.0.0-rc1", "3.0.0", "4.0.0"];
    const own = versionOwnTags(tags, undefined, wanted);
    expect([...untaggedVersions(tags, undefined, wanted)].map((v) => [v, own.get(v)?.at(-1)])).toEqual([
      ["1.1.0", "1.1.0_20250201120000"],
      ["2.0.0-rc1", "2.0.0-rc1_20250101120000"],
    ]);
  });

  it("leaves out a release a longer published release extends: their exact tag is shared", () => {
    expect([...untaggedVersions(tags, undefined, ["1.2.3"])]).toEqual([]);
  });

  it("reads one variant's tags only", () => {
    const own = versionOwnTags(tags, "musl", ["1.1.0", "1.0.0"]);
    expect(
      [...untaggedVersions(tags, "musl", ["1.1.0", "1.0.0"])].map((v) => [v, own.get(v)?.at(-1)]),
    ).toEqual([["1.1.0", "musl-1.1.0_20250101120000"]]);
  });
});

describe("versionOwnTags", () => {
  it("is the version's primary tags, oldest build first, never its exact tag", () => {
    expect(
      versionOwnTags(["1.1.0", "1.1.0_20250201120000", "1.1.0_20250101120000", "1.1"], undefined, [
        "1.1.0",
      ]).get("1.1.0"),
    ).toEqual(["1.1.0_20250101120000", "1.1.0_20250201120000"]);
  });

  it("is the bare tag under build_timestamp none, and nothing for an unpublished version", () => {
    expect(Object.fromEntries(versionOwnTags(["1.1.0", "1.1"], undefined, ["1.1.0", "1.2.0"]))).toEqual({
      "1.1.0": ["1.1.0"],
    });
  });
});
