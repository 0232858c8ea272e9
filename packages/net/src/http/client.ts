import type { IncomingHttpHeaders } from "node:http";
import { ExitCode, PkgError } from "@pkg/common";
import { type Dispatcher, request } from "undici";
import { ladderAuthorization } from "./authorization.js";
import { discard, pumpBody, readBody } from "./body.js";
import { displayUrl, HttpTransportError } from "./errors.js";
import { createProxyDispatcher } from "./proxy-dispatcher.js";
import type {
  HttpBodySink,
  HttpClient,
  HttpRequest,
  HttpResponse,
  HttpResponseHead,
  HttpStreamResult,
} from "./types.js";

export interface HttpClientOptions {
  /** Proxy variables, extra CA variables and credentials are read here (default process.env). */
  env?: NodeJS.ProcessEnv;
  userAgent?: string;
  /** PEM certificates trusted beside Node's roots and the environment's extra CAs. */
  ca?: string[];
}

/** The client, plus `close` to release its pooled connections. */
export interface PooledHttpClient extends HttpClient {
  close(): Promise<void>;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const MAX_REDIRECTS = 10;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Parses a URL to request, refusing anything but http(s) and any embedded credentials (exit 65). */
function requestUrl(text: string, base?: URL): URL {
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

function transportReason(error: unknown): { reason: string; transient: boolean } {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  // certificate failures do not heal on a retry
  const certificate = /CERT|SELF_SIGNED|UNABLE_TO_|ERR_TLS/.test(code ?? "");
  return { reason: code ? `${message} (${code})` : message, transient: !certificate };
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
 * The one HTTP client: proxy variables and extra CAs from `env`, redirects followed by hand
 * (at most 10) so that credentials are chosen for each host actually requested. An explicit
 * `Authorization` header is sent to the request's own origin only; every other hop gets the
 * ladder's credential for its host (unless `auth: "none"`).
 */
export function createHttpClient(options: HttpClientOptions = {}): PooledHttpClient {
  const env = options.env ?? process.env;
  const userAgent = options.userAgent ?? "pkg";
  const dispatcher = createProxyDispatcher(env, options.ca ?? []);
  // a failed CA read must not surface as an unhandled rejection before the first fetch
  dispatcher.catch(() => {});
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
    req: HttpRequest,
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<Dispatcher.ResponseData> {
    const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const pool = await dispatcher;
    requestCount += 1;
    try {
      return await request(url, {
        dispatcher: pool,
        method: req.method ?? "GET",
        headers,
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (error) {
      throw transportError(url, error, signal, timeoutMs);
    }
  }

  function transportError(url: URL, error: unknown, signal: AbortSignal, timeoutMs: number): PkgError {
    if (error instanceof PkgError) return error;
    if (signal.aborted) {
      return new HttpTransportError(url, `no complete answer within ${timeoutMs} ms`, {
        cause: error,
        transient: true,
      });
    }
    const { reason, transient } = transportReason(error);
    return new HttpTransportError(url, reason, { cause: error, transient });
  }

  /** Sends the request and follows redirects; resolves with the final answer, its body unread. */
  async function open(
    req: HttpRequest,
    signal: AbortSignal,
  ): Promise<{ response: Dispatcher.ResponseData; url: URL }> {
    const first = requestUrl(req.url);
    const { explicitAuth, others } = splitHeaders(req.headers);
    let url = first;
    for (let redirects = 0; ; redirects += 1) {
      const headers: Record<string, string> = { "user-agent": userAgent, ...others };
      const authorization = await authorizationFor(url, first.origin, req, explicitAuth);
      if (authorization !== undefined) headers.authorization = authorization;
      const response = await send(url, req, headers, signal);
      const location = response.headers.location;
      if (!REDIRECT_STATUSES.has(response.statusCode) || typeof location !== "string")
        return { response, url };
      // a small redirect body is read off so that the connection can be reused
      await response.body.dump({ limit: 64 * 1024 }).catch(() => {});
      if (redirects >= MAX_REDIRECTS) {
        throw new HttpTransportError(first, `more than ${MAX_REDIRECTS} redirects`, { transient: false });
      }
      url = requestUrl(location, url);
    }
  }

  function head(response: Dispatcher.ResponseData, url: URL): HttpResponseHead {
    return { status: response.statusCode, headers: nodeHeaders(response.headers), url: url.href };
  }

  async function fetch(req: HttpRequest): Promise<HttpResponse> {
    const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const signal = AbortSignal.timeout(timeoutMs);
    const { response, url } = await open(req, signal);
    try {
      const body = await readBody(response.body, url, req.maxBytes, response.headers["content-length"]);
      return { ...head(response, url), body };
    } catch (error) {
      throw transportError(url, error, signal, timeoutMs);
    }
  }

  async function stream(req: HttpRequest, sink: HttpBodySink): Promise<HttpStreamResult> {
    const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // only the wait for the head is bounded in total; the body is bounded per silence (bodyTimeout)
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let opened: Awaited<ReturnType<typeof open>>;
    try {
      opened = await open(req, controller.signal);
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
    const declared = req.method === "HEAD" ? undefined : response.headers["content-length"];
    const bytes = await pumpBody(response.body, writable, url, req.maxBytes, declared);
    return { ...answered, bytes };
  }

  return {
    fetch,
    stream,
    get requestCount() {
      return requestCount;
    },
    async close() {
      await (await dispatcher.catch(() => undefined))?.close();
    },
  };
}
