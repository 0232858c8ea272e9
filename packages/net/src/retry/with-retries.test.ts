import { describe, expect, test } from "vitest";
import { SPEC_BACKOFF } from "./policy.js";
import { type RetryEvent, withRetries } from "./with-retries.js";

const policy = { ...SPEC_BACKOFF, retries: 3 };

function recorder() {
  const waits: number[] = [];
  const events: RetryEvent<unknown>[] = [];
  return {
    waits,
    events,
    sleep: async (ms: number) => {
      waits.push(ms);
    },
    onRetry: (event: RetryEvent<unknown>) => events.push(event),
    random: () => 0.5,
  };
}

describe("withRetries", () => {
  test("retries retryable errors with the backoff until an attempt succeeds", async () => {
    const r = recorder();
    const seen: number[] = [];
    const value = await withRetries(
      policy,
      async (n) => {
        seen.push(n);
        if (n < 3) throw new Error(`boom ${n}`);
        return "ok";
      },
      { isRetryable: () => true, ...r },
    );
    expect(value).toBe("ok");
    expect(seen).toEqual([1, 2, 3]);
    expect(r.waits).toEqual([1000, 2000]);
    expect(r.events.map((e) => [e.attempt, e.total, e.delayMs, e.retryAfter])).toEqual([
      [1, 4, 1000, false],
      [2, 4, 2000, false],
    ]);
  });

  test("an error not judged retryable is rethrown at once; the last error once attempts run out", async () => {
    const r = recorder();
    const fatal = new Error("fatal");
    await expect(withRetries(policy, async () => Promise.reject(fatal), { ...r })).rejects.toBe(fatal);
    expect(r.waits).toEqual([]);
    let n = 0;
    const failing = withRetries(
      { ...policy, retries: 2 },
      async () => {
        n += 1;
        throw new Error(`attempt ${n}`);
      },
      { isRetryable: () => true, ...r },
    );
    await expect(failing).rejects.toThrow("attempt 3");
    expect(r.waits).toEqual([1000, 2000]);
  });

  test("a retryable value is retried, and returned as it is after the last attempt", async () => {
    const r = recorder();
    const statuses = [503, 503, 503, 503, 503];
    const value = await withRetries({ ...policy, retries: 2 }, async (n) => ({ status: statuses[n - 1] }), {
      isRetryableValue: (v) => v.status === 503,
      ...r,
    });
    expect(value).toEqual({ status: 503 });
    expect(r.waits).toEqual([1000, 2000]);
  });

  test("Retry-After (seconds or a date) replaces the backoff, clamped to [min, max]", async () => {
    const r = recorder();
    const now = Date.parse("2025-01-01T00:00:00Z");
    const asked = ["2", "Wed, 01 Jan 2025 00:00:05 GMT", "120", "0", "soon"];
    await withRetries(
      { ...policy, retries: 5, minDelayMs: 100 },
      async (n) => (n <= asked.length ? { retryAfter: asked[n - 1] } : { retryAfter: undefined }),
      {
        isRetryableValue: (v) => v.retryAfter !== undefined,
        retryAfter: (f) => ("value" in f ? f.value.retryAfter : undefined),
        now: () => now,
        ...r,
      },
    );
    expect(r.waits).toEqual([2000, 5000, 30_000, 100, 16_000]);
    expect(r.events.map((e) => e.retryAfter)).toEqual([true, true, true, true, false]);
  });

  test("retries: 0 is a single attempt; an abort stops before the next attempt", async () => {
    let calls = 0;
    const once = withRetries(
      { ...policy, retries: 0 },
      async () => {
        calls += 1;
        throw new Error("x");
      },
      { isRetryable: () => true },
    );
    await expect(once).rejects.toThrow("x");
    expect(calls).toBe(1);

    const controller = new AbortController();
    calls = 0;
    const aborted = withRetries(
      policy,
      async () => {
        calls += 1;
        throw new Error("y");
      },
      {
        isRetryable: () => true,
        signal: controller.signal,
        sleep: async () => controller.abort(new Error("stopped")),
      },
    );
    await expect(aborted).rejects.toThrow("stopped");
    expect(calls).toBe(1);
  });

  test("the default sleep really waits, and an abort cuts the wait short", async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error("cut")), 20);
    const waiting = withRetries(
      { ...policy, firstDelayMs: 10_000 },
      async () => {
        throw new Error("z");
      },
      { isRetryable: () => true, signal: controller.signal },
    );
    await expect(waiting).rejects.toThrow("cut");
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
