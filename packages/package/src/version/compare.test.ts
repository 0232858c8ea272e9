import { describe, expect, it } from "vitest";
import { compareVersions } from "./compare.js";
import { formatVersion, matchVersion, type Version } from "./grammar.js";

function version(text: string): Version {
  const parsed = matchVersion(text);
  if (typeof parsed === "string") throw new Error(`${text}: ${parsed}`);
  return parsed;
}

/** Written out by hand, oldest first. */
const sorted = [
  "0.9",
  "0.9.0",
  "1",
  "1.0.0-0",
  "1.0.0-2",
  "1.0.0-10",
  "1.0.0-alpha",
  "1.0.0-alpha.1",
  "1.0.0-alpha.beta",
  "1.0.0-beta",
  "1.0.0-beta.2",
  "1.0.0-beta.11",
  "1.0.0-rc.1",
  "1.0.0-rc1",
  "1.0.0",
  "1.0.0_20250101",
  "1.0.0_20250101000000",
  "1.0.0_20250101120000",
  "1.0.0_20250102",
  "1.0.0.1",
  "1.2",
  "1.2.0",
  "1.2.3-rc1",
  "1.2.3-rc1_20250101120000",
  "1.2.3",
  "1.02.4",
  "1.2.4",
  "1.2.10",
  "1.9.0",
  "1.10.0",
  "2.0.0-rc1",
  "2.0.0",
  "2024.01.15",
  "2024.1.16",
  "2024.02.01",
  "99999999999999999999.0",
];

describe("compareVersions", () => {
  it("orders a shuffled list like the hand-sorted one", () => {
    const shuffled = [...sorted].reverse().sort((a, b) => (a.length % 3) - (b.length % 3));
    const result = shuffled.map(version).sort(compareVersions).map(formatVersion);
    expect(result).toEqual(sorted);
  });

  it("is a total order consistent with equality", () => {
    const versions = sorted.map(version);
    versions.forEach((a, i) => {
      versions.forEach((b, j) => {
        expect(Math.sign(compareVersions(a, b))).toBe(Math.sign(i - j));
      });
    });
  });

  it("compares numeric components as numbers of any length", () => {
    expect(compareVersions(version("1.10"), version("1.9"))).toBe(1);
    expect(compareVersions(version("100000000000000000000"), version("99999999999999999999"))).toBe(1);
    expect(compareVersions(version("1.007"), version("1.7"))).toBe(-1);
    expect(compareVersions(version("1.007"), version("1.8"))).toBe(-1);
  });
});
