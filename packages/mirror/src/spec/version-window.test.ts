import { describe, expect, it } from "vitest";
import { emptyWindowProblem } from "./version-window.js";
import type { Versions } from "./versions.js";

const window = (
  min: string | { url: string },
  minInclusive: boolean,
  max: string,
  maxInclusive: boolean,
): Versions => ({
  backfill: "newest_first",
  min: { version: min, inclusive: minInclusive },
  max: { version: max, inclusive: maxInclusive },
});

describe("emptyWindowProblem", () => {
  it("names both values when min is above max", () => {
    expect(emptyWindowProblem(window("2.0.0", true, "1.0.0", false), false)).toBe(
      'versions.min "2.0.0" and versions.max "1.0.0": min is above max, so the version window is empty and nothing is mirrored',
    );
  });

  it.each([
    [true, false, "max is exclusive"],
    [false, true, "min is exclusive"],
    [false, false, "both edges are exclusive"],
  ])("equal edges with min inclusive %s, max inclusive %s: %s", (minInclusive, maxInclusive, edge) => {
    expect(emptyWindowProblem(window("1.2.0", minInclusive, "1.2.0", maxInclusive), false)).toBe(
      `versions.min "1.2.0" and versions.max "1.2.0" are equal and ${edge}, so the version window is empty and nothing is mirrored`,
    );
  });

  it("keeps a one-version window (both edges inclusive) and an ordinary one", () => {
    expect(emptyWindowProblem(window("1.2.0", true, "1.2.0", true), false)).toBeUndefined();
    expect(emptyWindowProblem(window("1.2.0", true, "1.10.0", false), false)).toBeUndefined();
    expect(emptyWindowProblem(window("1.2.0-rc1", true, "1.2.0", false), false)).toBeUndefined();
  });

  it("compares in the source's grammar", () => {
    // numbers, not text: 1.10 is above 1.9
    expect(emptyWindowProblem(window("1.10", true, "1.9", false), false)).toMatch(/min is above max/);
    // PEP 440: 1.0 and 1.0.0 are one version; a pre-release sorts before its release
    expect(emptyWindowProblem(window("1.0", true, "1.0.0", false), true)).toMatch(/are equal/);
    expect(emptyWindowProblem(window("2.0", true, "2.0rc1", false), true)).toMatch(/min is above max/);
    expect(emptyWindowProblem(window("2.0rc1", true, "2.0", false), true)).toBeUndefined();
  });

  it("says nothing when an edge is not a literal or not of the grammar", () => {
    expect(
      emptyWindowProblem(window({ url: "https://x.test/v" }, true, "1.0.0", false), false),
    ).toBeUndefined();
    expect(emptyWindowProblem(window("2.0rc1", true, "1.0", false), false)).toBeUndefined();
    expect(
      emptyWindowProblem({ backfill: "newest_first", min: { version: "2.0.0", inclusive: true } }, false),
    ).toBeUndefined();
  });
});
