import type { IncomingHttpHeaders } from "node:http";
import type { Readable, Writable } from "node:stream";
import type { HttpBody } from "./request-body.js";

export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * The one HTTP client of the pkg tools (the mirror's forge listings, url indexes, version bounds and
 * downloads; the registry transport; the catalog's URL sources; announce, notify and signing
 * requests). Built by `createHttpClient` (http/client.ts): proxy variables, extra CAs, timeouts,
 * and the host-keyed credential ladder applied to the host actually requested.
 */
export interface HttpRequest {
  url: string | URL;
  method?: HttpMethod;
  headers?: Record<string, string>;
  /**
   * The request body; a redirect that keeps it (307, 308) and every retry send it again, a
   * stream body being opened afresh for each send.
   */
  body?: HttpBody;
  /**
   * Default 30 s. For `fetch`, the whole request; for `stream`, the wait for the answer's head and
   * each silence between two body chunks (a large download may take longer than this in total);
   * for `open`, each silence: while the request body goes out, while the head is awaited, and
   * between two chunks of the answer's body.
   */
  timeoutMs?: number;
  /** Largest body accepted; a longer one fails the request (exit 69 for the caller to map). */
  maxBytes?: number;
  /**
   * Credentials: "ladder" (default) resolves the host-keyed ladder (PKG_AUTH_<host>_*, then netrc)
   * for each host requested, redirects included; "none" sends none; a header given in `headers`
   * (e.g. the forge token) always wins, and goes to the request's own origin only.
   */
  auth?: "ladder" | "none";
  /**
   * Cuts the request when it fires: the connection is closed whether the request is still being
   * sent, waiting for its answer or reading the answer's body, and the request rejects with the
   * signal's reason.
   */
  signal?: AbortSignal;
  /** "follow" (default): redirects are followed, at most `maxRedirects` (default 10); "manual": a 3xx is the answer. */
  redirect?: "follow" | "manual";
  maxRedirects?: number;
}

/** The final answer's status and headers, redirects followed. */
export interface HttpResponseHead {
  status: number;
  headers: IncomingHttpHeaders;
  /** The URL that answered, after redirects. */
  url: string;
}

export interface HttpResponse extends HttpResponseHead {
  body: Buffer;
}

/** An answer whose body is still to be read (`readBody`, `pumpBody`) or let go (`drain`, `discard`). */
export interface HttpOpenResponse extends HttpResponseHead {
  body: Readable;
}

/**
 * Chooses where `stream` writes a body, once the head is known: a Writable receives the body and
 * is ended (its own errors, e.g. a full disk, reject `stream` as they are); `undefined` discards it
 * (an error status whose body is of no interest).
 */
export type HttpBodySink = (head: HttpResponseHead) => Writable | undefined;

export interface HttpStreamResult extends HttpResponseHead {
  /** Body bytes written to the sink; 0 when the sink declined the body. */
  bytes: number;
}

export interface HttpClient {
  /**
   * Sends a request and reads the whole body (bounded by maxBytes). Any HTTP status resolves;
   * a transport failure (refused, reset, DNS, TLS, timeout) rejects with an `HttpTransportError`.
   */
  fetch(request: HttpRequest): Promise<HttpResponse>;
  /**
   * Sends a request and streams the body into the sink's Writable without holding it in memory
   * (downloads), bounded by maxBytes. Resolves once the Writable has finished. A transport failure,
   * a body cut short or longer than maxBytes rejects with an `HttpTransportError`; whatever the
   * Writable received then must not be taken as complete.
   */
  stream(request: HttpRequest, sink: HttpBodySink): Promise<HttpStreamResult>;
  /**
   * Sends a request and resolves with the answer's head and its unread body, which the caller
   * must read or let go. A transport failure rejects with an `HttpTransportError`; a failure of a
   * stream request body passes as it is.
   */
  open(request: HttpRequest): Promise<HttpOpenResponse>;
  /** Requests sent so far (redirect hops and retries each count), for reports and benchmarks. */
  readonly requestCount: number;
}
