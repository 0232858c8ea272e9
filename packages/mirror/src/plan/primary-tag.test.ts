import { ExitCode, PkgError } from "@pkg/common";
import { describe, expect, test } from "vitest";
import { primaryTagFor } from "./primary-tag.js";

const at = new Date("2025-01-02T03:04:05.678Z");

describe("primaryTagFor", () => {
  test("appends the UTC build time per build_timestamp", () => {
    expect(primaryTagFor("1.2.3", "datetime", at)).toBe("1.2.3_20250102030405");
    expect(primaryTagFor("1.2.3", "date", at)).toBe("1.2.3_20250102");
    expect(primaryTagFor("1.2.3", "none", at)).toBe("1.2.3");
  });

  test("keeps pre-release identifiers and prefixes a variant", () => {
    expect(primaryTagFor("1.2.3-rc1", "datetime", at)).toBe("1.2.3-rc1_20250102030405");
    expect(primaryTagFor("2024.01.15", "date", at, "debug")).toBe("debug-2024.01.15_20250102");
  });

  test("refuses a version that already carries a build suffix (exit 65)", () => {
    for (const version of ["1.2.3_20250101", "1.2.3_20250101120000"]) {
      let caught: unknown;
      try {
        primaryTagFor(version, "datetime", at);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(PkgError);
      expect((caught as PkgError).exitCode).toBe(ExitCode.Data);
      expect((caught as PkgError).message).toContain("already carries a build suffix");
    }
  });
});
