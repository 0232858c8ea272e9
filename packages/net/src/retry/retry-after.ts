/**
 * Milliseconds a `Retry-After` value asks for (delay-seconds or an HTTP date; a past date means
 * now), clamped to [minMs, maxMs]; undefined when absent or unparsable. A repeated header counts
 * by its first value.
 */
export function parseRetryAfter(
  value: string | readonly string[] | undefined,
  now: number,
  bounds: { minMs?: number; maxMs: number },
): number | undefined {
  const first = typeof value === "string" ? value : value?.[0];
  if (first === undefined) return undefined;
  const trimmed = first.trim();
  let ms: number;
  if (/^[0-9]+$/.test(trimmed)) ms = Number(trimmed) * 1000;
  else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return undefined;
    ms = at - now;
  }
  return Math.min(Math.max(ms, bounds.minMs ?? 0), bounds.maxMs);
}
