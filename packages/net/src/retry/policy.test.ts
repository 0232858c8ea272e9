import { describe, expect, test } from "vitest";
import { backoffDelay, SPEC_BACKOFF } from "./policy.js";

describe("one backoff formula", () => {
  const spec = { ...SPEC_BACKOFF, retries: 5 };

  test("the spec's: 1 s doubling, the jitter centred on the nominal wait", () => {
    expect([1, 2, 3, 4, 5].map((retry) => backoffDelay(spec, retry, 0.5))).toEqual([
      1000, 2000, 4000, 8000, 16000,
    ]);
    expect(backoffDelay(spec, 1, 0)).toBe(900);
    expect(backoffDelay(spec, 1, 0.999_999)).toBe(1100);
    expect(backoffDelay(spec, 2, 0)).toBe(1800);
    expect(backoffDelay(spec, 2, 0.999_999)).toBe(2200);
  });

  test("the spec's: capped at 30 s before the jitter, so a capped wait lands in 27 to 33 s", () => {
    for (const retry of [6, 7, 20]) {
      expect(backoffDelay(spec, retry, 0)).toBe(27_000);
      expect(backoffDelay(spec, retry, 0.5)).toBe(30_000);
      expect(backoffDelay(spec, retry, 0.999_999)).toBe(33_000);
    }
  });

  test("equal jitter (half fixed, half random) under the cap, and no jitter with another multiplier", () => {
    const equal = { retries: 3, firstDelayMs: 100, maxDelayMs: 300, jitter: { below: 0.5, above: 0 } };
    expect(backoffDelay(equal, 1, 0)).toBe(50);
    expect(backoffDelay(equal, 1, 1)).toBe(100);
    expect(backoffDelay(equal, 2, 1)).toBe(200);
    expect(backoffDelay(equal, 6, 1)).toBe(300);
    const fourfold = {
      retries: 2,
      firstDelayMs: 500,
      multiplier: 4,
      maxDelayMs: 30_000,
      jitter: { below: 0, above: 0 },
    };
    expect([1, 2, 3].map((retry) => backoffDelay(fourfold, retry, 0.7))).toEqual([500, 2000, 8000]);
  });
});
