import { ExitCode, PkgError } from "@pkg/common";
import { describe, expect, it } from "vitest";
import { formatVersion, isPrerelease, isValidBuildStamp, matchVersion, parseVersion } from "./grammar.js";

describe("version grammar", () => {
  it.each([
    ["2", ["2"], undefined],
    ["1.2", ["1", "2"], undefined],
    ["1.2.3", ["1", "2", "3"], undefined],
    ["1.2.3.4", ["1", "2", "3", "4"], undefined],
    ["2024.01.15", ["2024", "01", "15"], undefined],
    ["0.0.0", ["0", "0", "0"], undefined],
    ["1.2.3-rc1", ["1", "2", "3"], ["rc1"]],
    ["1.2.3-beta.2", ["1", "2", "3"], ["beta", "2"]],
    ["1.2.3-rc-1", ["1", "2", "3"], ["rc-1"]],
    ["1.2-alpha.1.x-y", ["1", "2"], ["alpha", "1", "x-y"]],
    ["10.20.30-0", ["10", "20", "30"], ["0"]],
  ])("accepts %s", (text, release, prerelease) => {
    const version = parseVersion(text);
    expect(version.release).toEqual(release);
    expect(version.prerelease).toEqual(prerelease);
    expect(version.build).toBeUndefined();
    expect(formatVersion(version)).toBe(text);
    expect(isPrerelease(version)).toBe(prerelease !== undefined);
  });

  it.each([
    ["", "empty"],
    ["v1.2.3", 'starts with "v"'],
    ["1.2.3+build.5", 'contains "+"'],
    ["1.2.3.4.5", "more than 4 numeric components"],
    ["1..2", "expected"],
    [".1", "expected"],
    ["1.", "expected"],
    ["1.2.3-", "expected"],
    ["1.2.3-rc..1", "expected"],
    ["1.2.3-rc.", "expected"],
    ["1.2.3-rc_1", "expected"],
    ["latest", "expected"],
    ["1.2.x", "expected"],
    [" 1.2.3", "expected"],
    ["1.2.3\n", "expected"],
    ["1".repeat(129), "longer than 128"],
  ])("refuses %j (%s)", (text, reason) => {
    const error = catchError(() => parseVersion(text));
    expect(error.exitCode).toBe(ExitCode.Data);
    expect(error.message).toContain(JSON.stringify(text));
    expect(error.message).toContain(reason);
  });

  it.each(["1.2.3_20250101", "1.2.3_20250101120000", "1.2.3-rc1_20250101120000"])(
    "refuses %s as input: it already carries a build suffix",
    (text) => {
      const error = catchError(() => parseVersion(text));
      expect(error.exitCode).toBe(ExitCode.Data);
      expect(error.message).toMatch(/already carries a build suffix \(_[0-9]+\)/);
    },
  );

  it("reads build suffixes where tags carry them", () => {
    expect(matchVersion("1.2.3-rc1_20250101120000")).toEqual({
      release: ["1", "2", "3"],
      prerelease: ["rc1"],
      build: "20250101120000",
    });
    expect(matchVersion("1.2.3_20250101")).toEqual({ release: ["1", "2", "3"], build: "20250101" });
    expect(matchVersion("1.2.3_2025010112")).toBe("expected <N>[.<N>[.<N>[.<N>]]][-<pre-release>]");
    expect(matchVersion("1.2.3_20251301")).toContain("not a valid UTC date");
  });

  it.each([
    ["20250101", true],
    ["20240229", true],
    ["20250229", false],
    ["20251231235959", true],
    ["20251231240000", false],
    ["20250100", false],
    ["20250132", false],
    ["20250101126000", false],
    ["2025010112000", false],
    ["00000229", true],
  ])("build stamp %s valid: %s", (stamp, valid) => {
    expect(isValidBuildStamp(stamp)).toBe(valid);
  });
});

function catchError(run: () => unknown): PkgError {
  try {
    run();
  } catch (error) {
    if (error instanceof PkgError) return error;
    throw error;
  }
  throw new Error("expected a PkgError");
}
