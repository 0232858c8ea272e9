import { describe, expect, test } from "vitest";
import type { PlatformExclude } from "../spec/platform-exclude.js";
import type { PlatformLeg } from "../spec/platforms.js";
import { type Applicability, platformApplicability, platformsOfVersion } from "./applicability.js";

const leg = (extra: Partial<PlatformLeg> = {}): PlatformLeg => ({
  runner: ["ubuntu-latest"],
  shell: "bash",
  prefix: [],
  exclude: [],
  ...extra,
});

describe("per-platform applicability", () => {
  const excludes: PlatformExclude[] = [
    { version: "1.5.0", reason: "segfaults on start", severity: "broken" },
    { min_version: "1.7.0", max_version: "1.8.0", severity: "skip" },
    { min_version: "3.0.0", severity: "broken" },
    { max_version: "1.1.0", reason: "never built", severity: "broken" },
  ];
  const window = leg({ min_version: "1.0.0", max_version: "4.0.0", exclude: excludes });
  const cases: Array<[string, string, Applicability]> = [
    ["min_version is inclusive", "1.0.0", { status: "excluded", severity: "broken", reason: "never built" }],
    ["below min_version", "0.9.9", { status: "outside" }],
    ["a pre-release of min_version is below it", "1.0.0-rc1", { status: "outside" }],
    ["inside, no exclude", "1.2.0", { status: "applicable" }],
    ["max_version is exclusive", "4.0.0", { status: "outside" }],
    ["a pre-release of max_version is inside", "4.0.0-rc1", { status: "excluded", severity: "broken" }],
    [
      "an exact exclude, broken, keeps its reason",
      "1.5.0",
      { status: "excluded", severity: "broken", reason: "segfaults on start" },
    ],
    ["an exact exclude matches only its version", "1.5.1", { status: "applicable" }],
    ["a range exclude: min inclusive", "1.7.0", { status: "excluded", severity: "skip" }],
    ["a range exclude: inside", "1.7.9", { status: "excluded", severity: "skip" }],
    ["a range exclude: max exclusive", "1.8.0", { status: "applicable" }],
    ["an open-ended range (min alone)", "3.5.0", { status: "excluded", severity: "broken" }],
    ["an open-ended range (max alone), exclusive", "1.1.0", { status: "applicable" }],
  ];
  test.each(cases)("%s: %s", (_name, version, expected) => {
    expect(platformApplicability(version, window)).toEqual(expected);
  });

  test("a platform without bounds or excludes takes every version", () => {
    expect(platformApplicability("0.0.1-alpha", leg())).toEqual({ status: "applicable" });
  });

  test("per version: broken pairs stay for the report, skip and outside pairs are dropped", () => {
    const platforms = {
      "linux/amd64": leg(),
      "linux/arm64": leg({ min_version: "2.0.0" }),
      "darwin/arm64": leg({
        exclude: [{ version: "1.5.0", reason: "notarisation failed", severity: "broken" }],
      }),
      "windows/amd64": leg({ exclude: [{ version: "1.5.0", severity: "skip" }] }),
    };
    expect(platformsOfVersion("1.5.0", platforms)).toEqual({
      applicable: ["linux/amd64"],
      broken: [{ platform: "darwin/arm64", reason: "notarisation failed" }],
    });
    expect(platformsOfVersion("2.0.0", platforms)).toEqual({
      applicable: ["linux/amd64", "linux/arm64", "darwin/arm64", "windows/amd64"],
      broken: [],
    });
  });
});
