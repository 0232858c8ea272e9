import type { IncomingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";
import { ExitCode, PkgError } from "@pkg/common";
import type { Dispatcher, EnvHttpProxyAgent } from "undici";
import { ladderAuthorization } from "./authorization.js";
import { discard, drain, pumpBody, readBody } from "./body.js";
import { displayUrl, HttpTransportError, transportFailure } from "./errors.js";
import { createProxyDispatcher } from "./proxy-dispatcher.js";
import { REDIRECT_STATUSES, redirectedMethod } from "./redirect.js";
import { BODY_HEADERS, type BodySend, openBody } from "./request-body.js";
import type {
  HttpBodySink,
  HttpClient,
  HttpMethod,
  HttpOpenResponse,
  HttpRequest,
  HttpResponse,
  HttpResponseHead,
  HttpStreamResult,
} from "./types.js";
import { undiciCore } from "./undici-core.js";

export interface HttpClientOptions {
  /** Proxy variables, extra CA variables and credentials are read here (default process.env). */
  env?: NodeJS.ProcessEnv;
  userAgent?: string;
  /** PEM certificates trusted beside Node's roots and the environment's extra CAs. */
  ca?: readonly string[];
  /** Bound of a TCP and TLS connection set-up (default undici's 10 s). */
  connectTimeoutMs?: number;
}

/** The client, plus `close` to release its pooled connections. */
export interface PooledHttpClient extends HttpClient {
  close(): Promise<void>;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const MAX_REDIRECTS = 10;

/** Parses a URL to request, refusing anything but http(s) and any embedded credentials (exit 65). */
function requestUrl(text: string | URL, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    // the text itself may hold credentials: it is not echoed
    const what = base ? `the redirect from ${displayUrl(base)}` : "a request";
    throw new PkgError(ExitCode.Data, `${what} names an invalid URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new PkgError(ExitCode.Data, `${displayUrl(url)}: only http and https URLs can be fetched`);
  }
  if (url.username || url.password) {
    throw new PkgError(
      ExitCode.Data,
      `${displayUrl(url)}: a URL must not embed credentials; use PKG_AUTH_<host>_* or a netrc entry`,
    );
  }
  return url;
}

function splitHeaders(headers: Record<string, string> = {}): {
  explicitAuth: string | undefined;
  others: Record<string, string>;
} {
  let explicitAuth: string | undefined;
  const others: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === "authorization") explicitAuth = value;
    else others[name.toLowerCase()] = value;
  }
  return { explicitAuth, others };
}

function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  const kept = { ...headers };
  for (const name of BODY_HEADERS) delete kept[name];
  return kept;
}

function nodeHeaders(headers: Dispatcher.ResponseData["headers"]): IncomingHttpHeaders {
  const copy: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (name === "set-cookie") copy[name] = Array.isArray(value) ? value : [value];
    else copy[name] = value;
  }
  return copy;
}

/**
 * How long to wait: the whole request (`fetch`), the head in total (`stream`), or each silence only
 * (`open`); `signal` also carries the caller's, whose abort (`caller`) rejects with its own reason.
 */
type Bound = { signal?: AbortSignal; timeoutMs: number; caller?: AbortSignal };

/** The request's bound: `own` (a timeout's signal) and the caller's signal, either cutting it. */
function boundOf(req: HttpRequest, timeoutMs: number, own?: AbortSignal): Bound {
  const caller = req.signal;
  const signals = [own, caller].filter((s): s is AbortSignal => s !== undefined);
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  return {
    timeoutMs,
    ...(signal === undefined ? {} : { signal }),
    ...(caller === undefined ? {} : { caller }),
  };
}

/** A failure once the caller's signal fired is that abort, whatever undici made of it. */
function callerAbort(bound: Bound): unknown {
  return bound.caller?.aborted ? bound.caller.reason : undefined;
}

/**
 * The one HTTP client: proxy variables and extra CAs from `env`, request bodies (bytes, text,
 * JSON, re-openable streams), redirects followed by hand (at most 10) so that credentials are
 * chosen for each host actually requested. An explicit `Authorization` header is sent to the
 * request's own origin only; every other hop gets the ladder's credential for its host (unless
 * `auth: "none"`). A 307/308 resends the body; a 303, or a 301/302 answering a POST, turns the
 * request into a GET without body.
 */
export function createHttpClient(options: HttpClientOptions = {}): PooledHttpClient {
  const env = options.env ?? process.env;
  const userAgent = options.userAgent ?? "pkg";
  // one pool for plain http, one for https (only it reads the CAs), each made on first use
  const pools = new Map<"http" | "https", Promise<EnvHttpProxyAgent>>();
  const poolFor = (url: URL): Promise<EnvHttpProxyAgent> => {
    const tls = url.protocol === "https:";
    let pool = pools.get(tls ? "https" : "http");
    if (pool === undefined) {
      const timeout =
        options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs };
      pool = createProxyDispatcher(env, options.ca ?? [], { ...timeout, tls });
      // a failed CA read rejects the request that needed it, and no unhandled rejection besides
      pool.catch(() => {});
      pools.set(tls ? "https" : "http", pool);
    }
    return pool;
  };
  const ladder = ladderAuthorization(env);
  let requestCount = 0;

  async function authorizationFor(
    url: URL,
    origin: string,
    req: HttpRequest,
    explicit: string | undefined,
  ): Promise<string | undefined> {
    if (explicit !== undefined && url.origin === origin) return explicit;
    if (req.auth === "none") return undefined;
    return ladder(url.host);
  }

  async function send(
    url: URL,
    method: HttpMethod,
    headers: Record<string, string>,
    body: BodySend | undefined,
    bound: Bound,
  ): Promise<Dispatcher.ResponseData> {
    const pool = await poolFor(url);
    requestCount += 1;
    try {
      return await undiciCore().request(pool, {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method,
        headers: { ...headers, ...body?.headers },
        body: body?.body ?? null,
        signal: bound.signal ?? null,
        headersTimeout: bound.timeoutMs,
        bodyTimeout: bound.timeoutMs,
      });
    } catch (error) {
      body?.stream?.destroy();
      const aborted = callerAbort(bound);
      if (aborted !== undefined) throw aborted;
      // a failure of the caller's body stream is the caller's own error, passed as it is
      const sourceFailure = body?.sourceFailure?.();
      if (sourceFailure !== undefined) throw sourceFailure;
      throw transportFailure(url, error, bound);
    }
  }

  /** Sends the request and follows redirects; resolves with the final answer, its body unread. */
  async function openWith(
    req: HttpRequest,
    bound: Bound,
  ): Promise<{ response: Dispatcher.ResponseData; url: URL }> {
    const first = requestUrl(req.url);
    const { explicitAuth, others } = splitHeaders(req.headers);
    const maxRedirects = req.maxRedirects ?? MAX_REDIRECTS;
    let url = first;
    let method: HttpMethod = req.method ?? "GET";
    let withBody = req.body !== undefined;
    // once a redirect has turned the request into a GET, the headers describing its body go too
    let bodyDropped = false;
    for (let redirects = 0; ; redirects += 1) {
      const base = bodyDropped ? withoutBodyHeaders(others) : others;
      const headers: Record<string, string> = { "user-agent": userAgent, ...base };
      const authorization = await authorizationFor(url, first.origin, req, explicitAuth);
      if (authorization !== undefined) headers.authorization = authorization;
      const body = withBody && req.body !== undefined ? openBody(req.body, headers) : undefined;
      const response = await send(url, method, headers, body, bound);
      const location = response.headers.location;
      const follow = req.redirect !== "manual" && REDIRECT_STATUSES.has(response.statusCode);
      if (!follow || typeof location !== "string") return { response, url };
      // a small redirect body is read off so that the connection can be reused
      await drain(response.body);
      if (redirects >= maxRedirects) {
        throw new HttpTransportError(first, `more than ${maxRedirects} redirects`, { transient: false });
      }
      url = requestUrl(location, url);
      const next = redirectedMethod(response.statusCode, method);
      bodyDropped ||= next.method !== method || (withBody && !next.body);
      method = next.method;
      withBody &&= next.body;
    }
  }

  function head(response: Dispatcher.ResponseData, url: URL): HttpResponseHead {
    return { status: response.statusCode, headers: nodeHeaders(response.headers), url: url.href };
  }

  /** The declared length of a body to come (a HEAD answer declares the length of a body it does not send). */
  function declaredLength(req: HttpRequest, response: Dispatcher.ResponseData) {
    return req.method === "HEAD" ? undefined : response.headers["content-length"];
  }

  async function fetch(req: HttpRequest): Promise<HttpResponse> {
    const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const bound = boundOf(req, timeoutMs, AbortSignal.timeout(timeoutMs));
    const { response, url } = await openWith(req, bound);
    try {
      const body = await readBody(response.body, url, req.maxBytes, declaredLength(req, response));
      return { ...head(response, url), body };
    } catch (error) {
      throw callerAbort(bound) ?? transportFailure(url, error, bound);
    }
  }

  async function stream(req: HttpRequest, sink: HttpBodySink): Promise<HttpStreamResult> {
    const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // only the wait for the head is bounded in total; the body is bounded per silence (bodyTimeout)
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let opened: Awaited<ReturnType<typeof openWith>>;
    try {
      opened = await openWith(req, boundOf(req, timeoutMs, controller.signal));
    } finally {
      clearTimeout(timer);
    }
    const { response, url } = opened;
    const answered = head(response, url);
    let writable: ReturnType<HttpBodySink>;
    try {
      writable = sink(answered);
    } catch (error) {
      discard(response.body);
      throw error;
    }
    if (writable === undefined) {
      discard(response.body);
      return { ...answered, bytes: 0 };
    }
    const bytes = await pumpBody(response.body, writable, url, req.maxBytes, declaredLength(req, response));
    return { ...answered, bytes };
  }

  async function open(req: HttpRequest): Promise<HttpOpenResponse> {
    const { response, url } = await openWith(req, boundOf(req, req.timeoutMs ?? DEFAULT_TIMEOUT_MS));
    const body: Readable = response.body;
    return { ...head(response, url), body };
  }

  return {
    fetch,
    stream,
    open,
    get requestCount() {
      return requestCount;
    },
    async close() {
      const opened = await Promise.all([...pools.values()].map((pool) => pool.catch(() => undefined)));
      await Promise.all(opened.map((pool) => pool?.close()));
    },
  };
}

/**
 * Reads the whole body of an answer from `open` (at most `maxBytes`); a failure rejects as the
 * client's own requests do (an `HttpTransportError`, `HttpBodyTooLargeError` for a longer body).
 */
export async function readOpenBody(response: HttpOpenResponse, maxBytes?: number): Promise<Buffer> {
  const url = new URL(response.url);
  try {
    return await readBody(response.body, url, maxBytes, response.headers["content-length"]);
  } catch (error) {
    throw transportFailure(url, error, { timeoutMs: 0 });
  }
}
