import { ExitCode, PkgError } from "@pkg/common";
import { describe, expect, it } from "vitest";
import { parseVersion } from "./grammar.js";
import {
  buildStamp,
  checkPackageTag,
  checkVariantName,
  exactTag,
  parseTag,
  primaryTag,
  rollingTags,
} from "./tags.js";

const at = new Date("2025-03-04T05:06:07.890Z");

describe("primary tags", () => {
  it.each([
    ["1.2.3", "datetime", undefined, "1.2.3_20250304050607"],
    ["1.2.3", "date", undefined, "1.2.3_20250304"],
    ["1.2.3", "none", undefined, "1.2.3"],
    ["1.2.3-rc1", "datetime", undefined, "1.2.3-rc1_20250304050607"],
    ["1.2.3-rc1", "date", undefined, "1.2.3-rc1_20250304"],
    ["1.2.3-rc1", "none", undefined, "1.2.3-rc1"],
    ["2024.01.15", "datetime", undefined, "2024.01.15_20250304050607"],
    ["1.2.3", "datetime", "debug", "debug-1.2.3_20250304050607"],
    ["1.2.3", "date", "pgo.lto", "pgo.lto-1.2.3_20250304"],
    ["1.2.3-beta.2", "none", "slim", "slim-1.2.3-beta.2"],
  ] as const)("%s with %s (variant %s) is %s", (version, mode, variant, tag) => {
    expect(primaryTag(parseVersion(version), mode, at, variant)).toBe(tag);
  });

  it("uses UTC whatever the local time zone", () => {
    expect(buildStamp("datetime", new Date("2025-12-31T23:59:59+02:00"))).toBe("20251231215959");
    expect(buildStamp("date", new Date("2026-01-01T01:00:00+02:00"))).toBe("20251231");
    expect(buildStamp("none", at)).toBeUndefined();
  });

  it("refuses a tag longer than OCI allows", () => {
    const long = parseVersion(`1.2.3-${"a".repeat(110)}`);
    expect(primaryTag(long, "none", at)).toHaveLength(116);
    expect(() => primaryTag(long, "datetime", at)).toThrow(/longer than the 128 characters/);
  });
});

describe("rolling tags", () => {
  it.each([
    ["1.2.3", undefined, ["1.2.3", "1.2", "1", "latest"]],
    ["1.2", undefined, ["1.2", "1", "latest"]],
    ["7", undefined, ["7", "latest"]],
    ["1.2.3.4", undefined, ["1.2.3.4", "1.2.3", "1.2", "1", "latest"]],
    ["2024.01.15", undefined, ["2024.01.15", "2024.01", "2024", "latest"]],
    ["1.2.3", "debug", ["debug-1.2.3", "debug-1.2", "debug-1", "debug"]],
    ["1.2.3-rc1", undefined, ["1.2.3-rc1"]],
    ["1.2.3-rc1", "debug", ["debug-1.2.3-rc1"]],
  ] as const)("%s (variant %s) cascades to %j", (version, variant, tags) => {
    expect(rollingTags(parseVersion(version), variant)).toEqual(tags);
    expect(exactTag(parseVersion(version), variant)).toBe(tags[0]);
  });

  it("ignores a build suffix when naming the exact tag", () => {
    expect(exactTag({ release: ["1", "2", "3"], build: "20250101" })).toBe("1.2.3");
  });
});

describe("variant names", () => {
  it.each(["debug", "pgo.lto", "v2", "a"])("accepts %s", (name) => {
    expect(() => checkVariantName(name)).not.toThrow();
  });

  it.each([
    ["latest", "reserved"],
    ["Debug", "expected"],
    ["2fast", "expected"],
    ["with-hyphen", "expected"],
    ["", "expected"],
  ])("refuses %j (%s)", (name, reason) => {
    let error: unknown;
    try {
      checkVariantName(name);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PkgError);
    expect((error as PkgError).exitCode).toBe(ExitCode.Data);
    expect((error as PkgError).message).toContain(reason);
  });

  it("refuses a bad variant when building a tag", () => {
    expect(() => rollingTags(parseVersion("1.2.3"), "latest")).toThrow(/reserved/);
  });
});

describe("reserved tags", () => {
  it.each(["__pkg.published", "__pkg.desc", "__pkg.anything", "__pkg."])(
    "refuses %s for a package",
    (tag) => {
      expect(() => checkPackageTag(tag)).toThrow(
        expect.objectContaining({
          exitCode: ExitCode.Usage,
          message: expect.stringContaining(`tag ${tag} is reserved`),
        }),
      );
    },
  );

  it.each(["1.2.3_20250101120000", "latest", "debug-1.2", "_pkg.desc", "__pkgdesc", "pkg.desc"])(
    "accepts %s",
    (tag) => {
      expect(() => checkPackageTag(tag)).not.toThrow();
    },
  );

  it("is never what a version or variant tag becomes", () => {
    expect(() => checkVariantName("__pkg")).toThrow();
    for (const tag of rollingTags(parseVersion("1.2.3"), "pgo.lto"))
      expect(() => checkPackageTag(tag)).not.toThrow();
  });
});

describe("parseTag", () => {
  const hex = "ab".repeat(32);
  it.each([
    [
      "1.2.3_20250101120000",
      { kind: "primary", version: { release: ["1", "2", "3"], build: "20250101120000" } },
    ],
    ["1.2.3_20250101", { kind: "primary", version: { release: ["1", "2", "3"], build: "20250101" } }],
    [
      "debug-1.2.3-rc1_20250101120000",
      {
        kind: "primary",
        variant: "debug",
        version: { release: ["1", "2", "3"], prerelease: ["rc1"], build: "20250101120000" },
      },
    ],
    ["1.2.3", { kind: "exact", version: { release: ["1", "2", "3"] } }],
    ["1.2.3.4", { kind: "exact", version: { release: ["1", "2", "3", "4"] } }],
    ["1.2-rc1", { kind: "exact", version: { release: ["1", "2"], prerelease: ["rc1"] } }],
    ["pgo.lto-1.2.3", { kind: "exact", variant: "pgo.lto", version: { release: ["1", "2", "3"] } }],
    ["1.2", { kind: "rolling", series: ["1", "2"], version: { release: ["1", "2"] } }],
    ["1", { kind: "rolling", series: ["1"], version: { release: ["1"] } }],
    ["debug-1", { kind: "rolling", variant: "debug", series: ["1"], version: { release: ["1"] } }],
    ["latest", { kind: "rolling", series: [] }],
    ["debug", { kind: "rolling", variant: "debug", series: [] }],
    ["__pkg.desc", { kind: "description" }],
    ["__pkg.published", { kind: "published-summary" }],
    [`sha256-${hex}`, { kind: "referrer", digest: `sha256:${hex}` }],
    [`sha256-${hex}.sig`, { kind: "referrer", digest: `sha256:${hex}` }],
    ["sha256-abc", { kind: "other" }],
    ["latest-1.2.3", { kind: "other" }],
    ["1.2.3_20251301", { kind: "other" }],
    ["1.2.3_2025", { kind: "other" }],
    // "v1.2.3" is a legal variant name (^[a-z][a-z0-9.]*$), so the tag reads as that variant's name tag
    ["v1.2.3", { kind: "rolling", variant: "v1.2.3", series: [] }],
    ["v-1.2.3", { kind: "exact", variant: "v", version: { release: ["1", "2", "3"] } }],
    ["Main", { kind: "other" }],
    ["debug-", { kind: "other" }],
    ["debug-x", { kind: "other" }],
    ["_private", { kind: "other" }],
    ["1.2.3.4.5", { kind: "other" }],
  ])("%s", (tag, expected) => {
    expect(parseTag(tag)).toEqual({ tag, ...expected });
  });

  it("reads back every tag the tools write", () => {
    const version = parseVersion("3.28.1-rc.2");
    const tag = primaryTag(version, "datetime", at, "slim");
    expect(parseTag(tag)).toEqual({
      kind: "primary",
      tag,
      variant: "slim",
      version: { ...version, build: "20250304050607" },
    });
    for (const rolling of rollingTags(parseVersion("3.28.1"), "slim")) {
      expect(parseTag(rolling)).toMatchObject({ variant: "slim" });
    }
  });
});
