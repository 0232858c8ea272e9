/**
 * One retry policy for every caller: how many times to try again, and one backoff formula.
 * The wait before retry `k` (1 = the first retry) is `min(first × multiplier^(k-1), max)`, then
 * spread by the jitter over that capped value: it lands in [capped × (1 − below), capped × (1 + above)].
 */
export interface RetryPolicy {
  /** Retries after the first attempt: total attempts = retries + 1; 0 = a single attempt. */
  retries: number;
  /** The nominal wait before the first retry. */
  firstDelayMs: number;
  /** Each later nominal wait is this many times the previous one (default 2: doubling). */
  multiplier?: number;
  /** The cap of a nominal wait (applied before the jitter), and the upper bound of a `Retry-After`. */
  maxDelayMs: number;
  /** The lower bound of a `Retry-After` wait (default 0). */
  minDelayMs?: number;
  /** The random spread over the capped wait, as fractions of it below and above. */
  jitter: { below: number; above: number };
}

/** The spec's push and listing-page backoff: 1 s, doubling, capped at 30 s, then ±10% (27 to 33 s capped). */
export const SPEC_BACKOFF = {
  firstDelayMs: 1000,
  maxDelayMs: 30_000,
  jitter: { below: 0.1, above: 0.1 },
} as const satisfies Omit<RetryPolicy, "retries">;

/**
 * Milliseconds to wait before retry number `retry` (1 = the first retry, i.e. before attempt 2),
 * given `random` in [0, 1).
 */
export function backoffDelay(policy: RetryPolicy, retry: number, random: number): number {
  const multiplier = policy.multiplier ?? 2;
  const nominal = Math.min(policy.firstDelayMs * multiplier ** (retry - 1), policy.maxDelayMs);
  const { below, above } = policy.jitter;
  return Math.round(nominal * (1 - below + (below + above) * random));
}
