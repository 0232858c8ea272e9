import { describe, expect, it } from "vitest";
import { selectLeaves } from "./select.js";

const TAGS = [
  "1.0.0_20250101000000",
  "1.1.0_20250201000000",
  "1.1.0_20250202000000",
  "2.0.0-rc1_20250301000000",
  "1.0.0",
  "1.0",
  "1.1.0",
  "1.1",
  "1",
  "latest",
  "debug-1.1.0_20250201000000",
  "debug-1.1.0",
  "debug",
];
const VARIANTS = [undefined, "debug"];

const pick = (versions: string[], range: { min?: string; max?: string } = {}) =>
  selectLeaves(TAGS, VARIANTS, { versions, ...range }).map((l) => [l.variant ?? "", l.version, l.tags]);

describe("selectLeaves", () => {
  it("nothing named: every leaf version of every variant of the spec", () => {
    expect(pick([])).toEqual([
      ["", "1.0.0", ["1.0.0_20250101000000"]],
      ["", "1.1.0", ["1.1.0_20250201000000", "1.1.0_20250202000000"]],
      ["", "2.0.0-rc1", ["2.0.0-rc1_20250301000000"]],
      ["debug", "1.1.0", ["debug-1.1.0_20250201000000"]],
    ]);
    expect(selectLeaves(TAGS, [undefined], { versions: [] })).toHaveLength(3);
  });

  it("--version by core, by variant, or a build tag verbatim; a range is [min, max); all a union", () => {
    expect(pick(["1.1.0"])).toEqual([["", "1.1.0", ["1.1.0_20250201000000", "1.1.0_20250202000000"]]]);
    expect(pick(["1.1.0_20250202000000"])).toEqual([["", "1.1.0", ["1.1.0_20250202000000"]]]);
    expect(pick(["debug-1.1.0"])).toEqual([["debug", "1.1.0", ["debug-1.1.0_20250201000000"]]]);
    expect(pick([], { min: "1.1.0", max: "2.0.0" }).map(([v, version]) => `${v}:${version}`)).toEqual([
      ":1.1.0",
      ":2.0.0-rc1",
      "debug:1.1.0",
    ]);
    expect(pick(["1.0.0"], { max: "1.0.1" }).map(([, version]) => version)).toEqual(["1.0.0"]);
  });

  it.each([
    ["latest", "names a rolling alias"],
    ["1.1", "names a rolling alias"],
    ["debug", "names a rolling alias"],
    ["3.0.0", "no published version or build tag"],
    ["1.0.0_20990101000000", "no published version or build tag"],
    ["other-1.0.0", "no published version or build tag"],
  ])("--version %s is exit 64 (%s)", (named, message) => {
    expect(() => pick([named])).toThrow(
      expect.objectContaining({ exitCode: 64, message: expect.stringContaining(message) }),
    );
  });

  it("a bound that is not a version is exit 64", () => {
    expect(() => pick([], { min: "one" })).toThrow(expect.objectContaining({ exitCode: 64 }));
    expect(() => pick([], { max: "1.0.0_20250101000000" })).toThrow(
      expect.objectContaining({ exitCode: 64 }),
    );
  });
});
