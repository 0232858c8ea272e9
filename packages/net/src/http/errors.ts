import { ExitCode, PkgError } from "@pkg/common";
import { isCertificateError, networkErrorCode } from "../retry/transient.js";

/**
 * A URL as it may appear in messages: scheme, host and path. Userinfo is dropped and a query
 * (which may carry a signature or token) is shown as `?…`.
 */
export function displayUrl(url: URL | string): string {
  let parsed: URL;
  try {
    parsed = typeof url === "string" ? new URL(url) : url;
  } catch {
    return "<invalid URL>";
  }
  return `${parsed.origin}${parsed.pathname}${parsed.search ? "?…" : ""}`;
}

/**
 * A request that got no complete HTTP answer: refused, reset, DNS, TLS, timeout, or a body larger
 * than allowed. Exit 69 (source unavailable); `transient` says whether another try may help.
 */
export class HttpTransportError extends PkgError {
  /** The URL of the failing hop, in its display form. */
  readonly url: string;
  readonly transient: boolean;
  /** The network error's code (`ECONNREFUSED`, `UND_ERR_SOCKET`, ...), when there is one. */
  readonly code: string | undefined;

  constructor(
    url: URL | string,
    reason: string,
    options: { cause?: unknown; transient: boolean; code?: string | undefined },
  ) {
    const shown = displayUrl(url);
    super(ExitCode.Unavailable, `${shown}: ${reason}`, { cause: options.cause });
    this.name = "HttpTransportError";
    this.url = shown;
    this.transient = options.transient;
    this.code = options.code;
  }
}

/** A response body longer than the caller accepts: `declared` when its length said so before any byte was read. */
export class HttpBodyTooLargeError extends HttpTransportError {
  constructor(
    url: URL | string,
    readonly maxBytes: number,
    readonly declared?: number,
  ) {
    super(url, `response body is larger than ${maxBytes} bytes`, { transient: false });
    this.name = "HttpBodyTooLargeError";
  }
}

/**
 * A failure of a request as the client reports it: its own errors (exit 65 for a refused URL, a
 * body too large) as they are, a request cut by its `timeoutMs` bound as such, anything else as
 * an `HttpTransportError` naming the network code; certificate failures are not transient.
 */
export function transportFailure(
  url: URL,
  error: unknown,
  bound: { signal?: AbortSignal | undefined; timeoutMs: number },
): PkgError {
  if (error instanceof PkgError) return error;
  if (bound.signal?.aborted) {
    return new HttpTransportError(url, `no complete answer within ${bound.timeoutMs} ms`, {
      cause: error,
      transient: true,
    });
  }
  const code = networkErrorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  const reason = code && !message.includes(code) ? `${message} (${code})` : message;
  return new HttpTransportError(url, reason, { cause: error, transient: !isCertificateError(code), code });
}
