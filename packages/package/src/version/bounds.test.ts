import { describe, expect, it } from "vitest";
import { inWindow, isApplicable, type VersionWindow } from "./bounds.js";
import { matchVersion, parseVersion, type Version } from "./grammar.js";

const v = parseVersion;

function build(text: string): Version {
  const parsed = matchVersion(text);
  if (typeof parsed === "string") throw new Error(parsed);
  return parsed;
}

describe("version windows", () => {
  const bare: VersionWindow = { min: v("1.2.0"), max: v("2.0.0") };
  it.each([
    ["1.1.9", false],
    ["1.2.0-rc1", false],
    ["1.2.0", true],
    ["1.5", true],
    ["1.99.99", true],
    ["2.0.0-rc1", true],
    ["2.0.0", false],
    ["2.0.1", false],
  ])("bare strings (min inclusive, max exclusive): %s inside %s", (version, inside) => {
    expect(inWindow(v(version), bare)).toBe(inside);
  });

  it("honours explicit inclusivity", () => {
    const window: VersionWindow = {
      min: v("1.2.0"),
      minInclusive: false,
      max: v("2.0.0"),
      maxInclusive: true,
    };
    expect(inWindow(v("1.2.0"), window)).toBe(false);
    expect(inWindow(v("1.2.1"), window)).toBe(true);
    expect(inWindow(v("2.0.0"), window)).toBe(true);
    expect(inWindow(v("2.0.1"), window)).toBe(false);
  });

  it("treats an unset edge as unbounded and ignores builds", () => {
    expect(inWindow(v("0.0.1"), { max: v("1") })).toBe(true);
    expect(inWindow(v("99"), { min: v("1") })).toBe(true);
    expect(inWindow(build("2.0.0_20250101"), bare)).toBe(false);
    expect(inWindow(build("1.2.0_20250101"), { min: v("1.2.0"), minInclusive: false })).toBe(false);
  });
});

describe("platform applicability", () => {
  const platform = {
    min: v("1.0.0"),
    max: v("3.0.0"),
    exclude: [{ version: v("1.5.0") }, { min: v("2.1.0"), max: v("2.2.0") }, { min: v("2.8.0") }],
  };
  it.each([
    ["0.9.0", false],
    ["1.0.0", true],
    ["1.5.0", false],
    ["1.5.1", true],
    ["2.1.0", false],
    ["2.1.9", false],
    ["2.2.0", true],
    ["2.7.9", true],
    ["2.8.0", false],
    ["3.0.0", false],
  ])("%s applicable: %s", (version, applicable) => {
    expect(isApplicable(v(version), platform)).toBe(applicable);
  });

  it("applies everywhere without bounds or excludes", () => {
    expect(isApplicable(v("0.0.1"), {})).toBe(true);
  });
});
