/** Retry policy of the registry client: which failures are transient, and how long to wait. */

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** First backoff delay; it doubles per attempt, with jitter. */
  baseDelayMs: number;
  /** Upper bound of any wait, including one a `Retry-After` asks for. */
  maxDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { retries: 3, baseDelayMs: 250, maxDelayMs: 30_000 };

/** 408, 429 and 5xx other than "not implemented" / "version not supported" are worth another try. */
export function isTransientStatus(status: number): boolean {
  return (
    status === 408 || status === 429 || (status >= 500 && status <= 599 && status !== 501 && status !== 505)
  );
}

const unavailableCodes = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_FAIL",
  "EAI_NONAME",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EHOSTDOWN",
  "ENETDOWN",
  "EADDRNOTAVAIL",
]);

const transientCodes = new Set([
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ECONNABORTED",
  "ERR_STREAM_PREMATURE_CLOSE",
  "UND_ERR_SOCKET",
  "HPE_INVALID_CONSTANT",
  "HPE_INVALID_CHUNK_SIZE",
]);

/**
 * How a failed connection counts: `unavailable` (the registry cannot be reached at all: refused,
 * no such host, unreachable, TLS handshake refused), `transient` (reset, timeout, cut short).
 */
export function classifyNetworkError(error: unknown): "unavailable" | "transient" {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? "";
  if (unavailableCodes.has(code)) return "unavailable";
  if (transientCodes.has(code)) return "transient";
  // TLS verification and handshake failures: retrying does not help
  if (/CERT|SSL|TLS|EPROTO|SELF_SIGNED|UNABLE_TO_/.test(code)) return "unavailable";
  return "transient";
}

/** Milliseconds a `Retry-After` value (seconds or an HTTP date) asks for, capped; undefined if unparsable. */
export function parseRetryAfter(value: string | undefined, now: number, capMs: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  let ms: number;
  if (/^[0-9]+$/.test(trimmed)) ms = Number(trimmed) * 1000;
  else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return undefined;
    ms = at - now;
  }
  return Math.min(Math.max(ms, 0), capMs);
}

/** Exponential backoff with "equal jitter": half fixed, half random; `attempt` counts from 0. */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: number): number {
  const ceiling = Math.min(policy.baseDelayMs * 2 ** attempt, policy.maxDelayMs);
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}
