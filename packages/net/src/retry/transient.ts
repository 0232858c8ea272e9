/** What counts as transient: the one predicate over HTTP statuses and network error codes. */

/** 408, 429 and 5xx other than 501 (not implemented) and 505 (version not supported) may heal on another try. */
export function isRetryableStatus(status: number): boolean {
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
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "HPE_INVALID_CONSTANT",
  "HPE_INVALID_CHUNK_SIZE",
]);

/** The code of a network error, or of the error it wraps (`cause`), if any. */
export function networkErrorCode(error: unknown): string | undefined {
  for (let at = error, depth = 0; at !== undefined && at !== null && depth < 4; depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === "string") return code;
    at = (at as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A TLS certificate or handshake failure: retrying does not help. */
export function isCertificateError(code: string | undefined): boolean {
  return /CERT|SELF_SIGNED|UNABLE_TO_|ERR_TLS/.test(code ?? "");
}

/**
 * How a failed connection counts: `unavailable` (the host cannot be reached at all: refused, no
 * such host, unreachable, TLS refused), `transient` (reset, timeout, cut short).
 */
export function classifyNetworkError(error: unknown): "unavailable" | "transient" {
  const code = networkErrorCode(error) ?? "";
  if (unavailableCodes.has(code)) return "unavailable";
  if (transientCodes.has(code)) return "transient";
  if (isCertificateError(code) || /SSL|TLS|EPROTO/.test(code)) return "unavailable";
  return "transient";
}
