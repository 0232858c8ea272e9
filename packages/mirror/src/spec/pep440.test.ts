import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { isPep440Version } from "./pep440.js";

const valid = [
  "1",
  "1.0",
  "2024.1.15",
  "1!2.0",
  "1.0a1",
  "1.0-rc.2",
  "1.0.post1",
  "1.0-1",
  "1.0.dev3",
  "1.0rc1.post2.dev3",
  "1.0RC1",
  "1.2.3-beta.1",
  "1.2.3-rc-1",
  "1.0_pre_2",
  "1.0r",
  "1.0c1",
];
const invalid = ["", "1.0-foo", "one", "1..0", ".1", "1.0.", "1.0--1", "latest"];

describe("PEP 440 versions", () => {
  it.each(valid)("accepts %j", (text) => {
    expect(isPep440Version(text)).toBe(true);
  });

  it.each(invalid)("refuses %j", (text) => {
    expect(isPep440Version(text)).toBe(false);
  });

  it("refuses what packaging accepts but a bound must not hold: a v prefix, a local part, surrounding space, 129 characters", () => {
    for (const text of ["v1.0", "1.0+local", " 1.0", "9".repeat(129)])
      expect(isPep440Version(text)).toBe(false);
  });

  it("agrees with Python's packaging on every sample", () => {
    const script =
      "import json,sys\nfrom packaging.version import Version, InvalidVersion\ndef ok(t):\n  try:\n    Version(t); return True\n  except InvalidVersion:\n    return False\nprint(json.dumps([ok(t) for t in json.load(sys.stdin)]))";
    const samples = [...valid, ...invalid];
    const verdicts = JSON.parse(
      execFileSync("python3", ["-c", script], { input: JSON.stringify(samples) }).toString(),
    );
    expect(verdicts).toEqual(samples.map((text) => isPep440Version(text)));
  });
});
