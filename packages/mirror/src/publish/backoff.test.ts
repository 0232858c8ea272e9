import { describe, expect, test } from "vitest";
import { pushBackoffMs } from "./backoff.js";

describe("pushBackoffMs", () => {
  test("starts at 1 s and doubles, with the jitter centred on the nominal wait", () => {
    expect([1, 2, 3, 4, 5].map((retry) => pushBackoffMs(retry, 0.5))).toEqual([
      1000, 2000, 4000, 8000, 16000,
    ]);
  });

  test("jitter is plus or minus 10%", () => {
    expect(pushBackoffMs(1, 0)).toBe(900);
    expect(pushBackoffMs(1, 0.999_999)).toBe(1100);
    expect(pushBackoffMs(2, 0)).toBe(1800);
    expect(pushBackoffMs(2, 0.999_999)).toBe(2200);
  });

  test("caps at 30 s before the jitter: a capped wait lands in 27 to 33 s", () => {
    for (const retry of [6, 7, 20]) {
      expect(pushBackoffMs(retry, 0)).toBe(27_000);
      expect(pushBackoffMs(retry, 0.5)).toBe(30_000);
      expect(pushBackoffMs(retry, 0.999_999)).toBe(33_000);
    }
  });
});
