import type { IncomingHttpHeaders } from "node:http";

/**
 * The one HTTP client of the mirror (every outbound request: forge listings, url indexes, version
 * bounds, downloads). Built by `createHttpClient` (http/client.ts): proxy variables, extra CAs,
 * timeouts, and the host-keyed credential ladder applied to the host actually requested.
 */
export interface HttpRequest {
  url: string;
  method?: "GET" | "HEAD";
  headers?: Record<string, string>;
  /** Whole-request timeout; default 30 s. */
  timeoutMs?: number;
  /** Largest body accepted; a longer one fails the request (exit 69 for the caller to map). */
  maxBytes?: number;
  /**
   * Credentials: "ladder" (default) resolves the host-keyed ladder (PKG_AUTH_<host>_*, then netrc)
   * for each host requested, redirects included; "none" sends none; a header given in `headers`
   * (e.g. the forge token) always wins.
   */
  auth?: "ladder" | "none";
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
}

export interface HttpClient {
  /**
   * Sends a request and reads the whole body (bounded by maxBytes). Any HTTP status resolves;
   * a transport failure (refused, reset, DNS, TLS, timeout) rejects with an `HttpTransportError`.
   */
  fetch(request: HttpRequest): Promise<HttpResponse>;
  /** Requests sent so far (redirect hops and retries each count), for reports and benchmarks. */
  readonly requestCount: number;
}
