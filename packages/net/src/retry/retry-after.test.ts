import { describe, expect, test } from "vitest";
import { parseRetryAfter } from "./retry-after.js";

describe("Retry-After", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");
  const bounds = { maxMs: 30_000 };
  test("seconds and HTTP dates, capped, past dates mean now", () => {
    expect(parseRetryAfter("2", now, bounds)).toBe(2000);
    expect(parseRetryAfter(" 120 ", now, bounds)).toBe(30_000);
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:00:05 GMT", now, bounds)).toBe(5000);
    expect(parseRetryAfter("Tue, 31 Dec 2024 23:00:00 GMT", now, bounds)).toBe(0);
    expect(parseRetryAfter("soon", now, bounds)).toBeUndefined();
    expect(parseRetryAfter(undefined, now, bounds)).toBeUndefined();
  });
  test("a floor, and a repeated header counts by its first value", () => {
    expect(parseRetryAfter("0", now, { minMs: 250, maxMs: 1000 })).toBe(250);
    expect(parseRetryAfter(["3", "9"], now, { maxMs: 30_000 })).toBe(3000);
  });
});
