import { describe, expect, it } from "vitest";
import { existingVersions, versionRecordTags } from "./existing.js";

const hex = "0".repeat(64);
const tags = [
  "1.2.3_20250101120000",
  "1.2.3_20250102120000",
  "1.2.3",
  "1.2",
  "1",
  "latest",
  "1.3.0_20250103120000",
  "1.3.0_20250101000000",
  "1.4.0",
  "2.0.0-rc1_20250104120000",
  "debug-1.2.3_20250101120000",
  "debug-1.2.3",
  "debug",
  "__pkg.desc",
  `sha256-${hex}`,
  "nightly-build",
];

describe("versionRecordTags", () => {
  it("reads each version from its exact tag, else from its build tags", () => {
    expect(Object.fromEntries(versionRecordTags(tags))).toEqual({
      "1.2.3": ["1.2.3"],
      "1.2": ["1.2"],
      "1": ["1"],
      "1.3.0": ["1.3.0_20250101000000", "1.3.0_20250103120000"],
      "1.4.0": ["1.4.0"],
      "2.0.0-rc1": ["2.0.0-rc1_20250104120000"],
    });
  });

  it("keeps to the variant asked for", () => {
    expect(Object.fromEntries(versionRecordTags(tags, "debug"))).toEqual({ "1.2.3": ["debug-1.2.3"] });
    expect(versionRecordTags(tags, "slim").size).toBe(0);
  });
});

describe("existingVersions", () => {
  it("unions the platforms of a version's record tags and skips tags gone since listing", () => {
    const records = new Map([
      ["1.3.0", ["1.3.0_20250101000000", "1.3.0_20250103120000"]],
      ["1.4.0", ["1.4.0"]],
    ]);
    const platforms = new Map([
      ["1.3.0_20250101000000", ["linux/amd64"]],
      ["1.3.0_20250103120000", ["linux/arm64", "linux/amd64"]],
    ]);
    const existing = existingVersions(records, platforms);
    expect([...(existing.get("1.3.0") ?? [])].sort()).toEqual(["linux/amd64", "linux/arm64"]);
    expect(existing.get("1.4.0")?.size).toBe(0);
  });
});
