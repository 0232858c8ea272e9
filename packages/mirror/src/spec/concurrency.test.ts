import { describe, expect, it } from "vitest";
import { defaultConcurrency, defaultMaxBundles } from "./concurrency.js";

describe("concurrency defaults", () => {
  it.each([
    [16, 8],
    [8, 4],
    [3, 1],
    [2, 1],
    [1, 1],
  ])("max_bundles on %i cores is %i", (cores, bundles) => {
    expect(defaultMaxBundles(cores)).toBe(bundles);
  });

  it.each([undefined, 0, Number.NaN])("max_bundles is 2 when the core count is unknown (%s)", (cores) => {
    expect(defaultMaxBundles(cores)).toBe(2);
  });

  it("fills every field from the spec's defaults", () => {
    expect(defaultConcurrency(6)).toEqual({
      max_downloads: 8,
      max_bundles: 3,
      rate_limit_ms: 0,
      max_retries: 3,
      compression_threads: 0,
    });
  });
});
