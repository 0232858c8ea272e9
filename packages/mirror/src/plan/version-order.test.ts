import { describe, expect, it } from "vitest";
import { primaryTagFor } from "./primary-tag.js";
import { recordedVersions, recordTagsToRead, untaggedVersions, versionOwnTags } from "./record-tags.js";
import { compareVersionTexts, inTextWindow, isPep440Only } from "./version-order.js";

describe("versions the planner orders and bounds", () => {
  it("PEP 440 forms the package grammar cannot hold are the normal forms an OCI tag can carry", () => {
    expect(["2.0.post1", "2.1rc1", "1.0.dev3", "1.0a1"].map(isPep440Only)).toEqual([true, true, true, true]);
    // the package grammar's own, a non-normal form, an epoch, a local part, no version at all
    expect(["1.2.3", "2.0-post1", "1!2.0", "2.0+local", "abc"].map(isPep440Only)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it("orders in the package grammar when both are of it, else by PEP 440", () => {
    const sorted = ["2.0", "1.0.post1", "2.0rc1", "1.0", "1.0.dev1", "1.10", "1.9"].sort(compareVersionTexts);
    expect(sorted).toEqual(["1.0.dev1", "1.0", "1.0.post1", "1.9", "1.10", "2.0rc1", "2.0"]);
    expect(compareVersionTexts("1.2.3-rc1", "1.2.3")).toBeLessThan(0);
  });

  it("bounds a PEP 440 version by the window's package-grammar bounds", () => {
    const window = { min: "1.0", minInclusive: true, max: "2.0", maxInclusive: false };
    expect(["0.9.post1", "1.0.post1", "2.0rc1", "2.0.post1"].map((v) => inTextWindow(v, window))).toEqual([
      false,
      true,
      true,
      false,
    ]);
    expect(inTextWindow("1.0.dev1", { min: "1.0", minInclusive: true, maxInclusive: false })).toBe(false);
  });

  it("tags a PEP 440 build <version>_<build>, or the bare version with build_timestamp none", () => {
    const at = new Date("2026-01-02T03:04:05Z");
    expect(primaryTagFor("2.0.post1", "datetime", at)).toBe("2.0.post1_20260102030405");
    expect(primaryTagFor("2.0.post1", "date", at)).toBe("2.0.post1_20260102");
    expect(primaryTagFor("2.0.post1", "none", at)).toBe("2.0.post1");
  });

  it("reads PEP 440 builds as published records that owe no tags", () => {
    const tags = [
      "1.0_20260101000000",
      "1.0",
      "latest",
      "2.0.post1_20260101000000",
      "2.0.post1_20260202000000",
      "x_1",
    ];
    expect(recordedVersions(tags).sort()).toEqual(["1.0", "2.0.post1"]);
    expect(recordTagsToRead(tags, undefined, ["2.0.post1"])).toEqual(
      new Map([["2.0.post1", ["2.0.post1_20260101000000", "2.0.post1_20260202000000"]]]),
    );
    expect(untaggedVersions(tags, undefined, ["2.0.post1"])).toEqual(new Set());
    expect(versionOwnTags(["2.0.post1"], undefined, ["2.0.post1"])).toEqual(
      new Map([["2.0.post1", ["2.0.post1"]]]),
    );
    // a variant never holds one
    expect(recordTagsToRead(tags, "slim", ["2.0.post1"])).toEqual(new Map());
  });
});
