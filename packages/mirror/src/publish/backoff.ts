/** The spec's push backoff: first retry after 1 s, doubling, capped at 30 s, then ±10% jitter. */
export const PUSH_BACKOFF = { firstMs: 1000, capMs: 30_000, jitter: 0.1 } as const;

/**
 * Milliseconds to wait before retry number `retry` (1 = the first retry, i.e. attempt 2), given
 * `random` in [0, 1). The jitter applies after the cap, so a capped wait lands in 27 to 33 s.
 */
export function pushBackoffMs(retry: number, random: number): number {
  const base = Math.min(PUSH_BACKOFF.firstMs * 2 ** (retry - 1), PUSH_BACKOFF.capMs);
  const factor = 1 - PUSH_BACKOFF.jitter + 2 * PUSH_BACKOFF.jitter * random;
  return Math.round(base * factor);
}
