import type { IncomingHttpHeaders } from "node:http";
import { ExitCode, type Logger, PkgError } from "@pkg/common";
import {
  type HttpClient,
  type HttpMethod,
  type HttpResponse,
  HttpTransportError,
  isRetryableStatus,
  SPEC_BACKOFF,
  withRetries,
} from "@pkg/net";
import type { Forge } from "./coordinate.js";

/** Retries after the first attempt of one API request (the spec's `max_retries` default). */
export const API_RETRIES = 3;
/** An API answer larger than this is refused (index files are small; lists are filtered). */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

export const DETAIL_NOT_ALLOWLISTED = "forge_publisher_not_allowlisted";
export const DETAIL_CAPABILITY = "forge_capability_unavailable";

export interface ForgeHttpOptions {
  http: HttpClient;
  forge: Forge;
  /** The API root (`https://api.github.com`, `https://host/api/v4`); the token goes to its origin only. */
  apiBase: string;
  token: string;
  log: Logger;
  /** Retries of a request answered 429, 5xx or rate-limited, or cut by the network (default 3). */
  retries?: number;
}

export interface ApiRequest {
  method?: HttpMethod;
  /** Below the API root, starting with `/`; path segments already encoded. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Default: the forge's JSON media type. */
  accept?: string;
  signal?: AbortSignal | undefined;
}

export interface ApiAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The request, for messages: method and path (no query, no host). */
  what: string;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A refusal for rate: 429, or forgeone's 403 with its quota spent or a Retry-After (secondary limits). */
export function isRateLimited(answer: { status: number; headers: IncomingHttpHeaders }): boolean {
  if (answer.status === 429) return true;
  if (answer.status !== 403) return false;
  return (
    header(answer.headers, "retry-after") !== undefined ||
    header(answer.headers, "x-ratelimit-remaining") === "0"
  );
}

/** What to wait before another try, as a Retry-After value: the header, or forgeone's quota reset time. */
function retryAfterOf(headers: IncomingHttpHeaders, now: number): string | undefined {
  const asked = header(headers, "retry-after");
  if (asked !== undefined) return asked;
  const reset = header(headers, "x-ratelimit-reset");
  if (header(headers, "x-ratelimit-remaining") === "0" && reset && /^[0-9]+$/.test(reset)) {
    return String(Math.max(0, Math.ceil(Number(reset) - now / 1000)));
  }
  return undefined;
}

/** The API's own message (`message`, `error`), or the start of a body that is not JSON. */
export function apiMessage(body: Buffer): string {
  const text = body.toString("utf8");
  let found: string | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null) {
      const record = parsed as Record<string, unknown>;
      const value = record.message ?? record.error;
      if (value !== undefined) found = typeof value === "string" ? value : JSON.stringify(value);
    }
  } catch {
    // not JSON: the text is the best description there is
  }
  const line = (found ?? text).trim().split("\n")[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/**
 * The error for an answer the caller did not expect: 401 a rejected token (80); 403 an allowlist
 * miss (77), a rate limit (75) or missing permission (80); 429 (75); 5xx (69); anything else 1.
 */
export function apiFailure(answer: ApiAnswer, context: string): PkgError {
  const message = apiMessage(answer.body);
  const said = `${context}: ${answer.what} answered ${answer.status}${message ? ` (${message})` : ""}`;
  if (answer.status === 401) {
    return new PkgError(ExitCode.AuthRejected, `${said}; the forge rejected PKG_ANNOUNCE_TOKEN`);
  }
  if (isRateLimited(answer)) return new PkgError(ExitCode.Transient, `${said}; rate-limited on every try`);
  if (answer.status === 403) {
    if (/job token not allowed from/i.test(message)) {
      return new PkgError(
        ExitCode.Permission,
        `${said}; the publisher is not on the index project's allowlist`,
        {
          detail: DETAIL_NOT_ALLOWLISTED,
        },
      );
    }
    return new PkgError(ExitCode.AuthRejected, `${said}; the token has no permission for this`);
  }
  if (answer.status >= 500) return new PkgError(ExitCode.Unavailable, `${said}; the forge is unavailable`);
  return new PkgError(ExitCode.Failed, said);
}

export function parseJson<T>(answer: ApiAnswer, context: string): T {
  try {
    return JSON.parse(answer.body.toString("utf8")) as T;
  } catch {
    throw new PkgError(ExitCode.Unavailable, `${context}: ${answer.what} did not answer with JSON`);
  }
}

/**
 * The forge's REST API through the one HTTP client: the token in an Authorization header sent to
 * the API origin only (never the credential ladder, never a redirect to another origin), answers
 * 429, 5xx and rate-limited 403 retried per the spec's backoff with Retry-After honoured, and
 * network failures retried likewise. Any status resolves; callers map the ones they do not expect
 * with `apiFailure`.
 */
export class ForgeHttp {
  readonly origin: string;
  readonly #base: string;
  readonly #options: ForgeHttpOptions;

  constructor(options: ForgeHttpOptions) {
    this.#options = options;
    this.#base = options.apiBase.replace(/\/+$/, "");
    this.origin = new URL(this.#base).origin;
  }

  async request(req: ApiRequest): Promise<ApiAnswer> {
    const method = req.method ?? "GET";
    const url = new URL(`${this.#base}${req.path}`);
    for (const [name, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#options.token}`,
      accept:
        req.accept ??
        (this.#options.forge === "forgeone" ? "application/vnd.github+json" : "application/json"),
    };
    if (this.#options.forge === "forgeone") headers["x-github-api-version"] = "2022-11-28";
    const what = `${method} ${url.pathname}`;
    const policy = { ...SPEC_BACKOFF, retries: this.#options.retries ?? API_RETRIES };
    const response = await withRetries<HttpResponse>(
      policy,
      () =>
        this.#options.http.fetch({
          url,
          method,
          headers,
          auth: "none",
          maxBytes: MAX_ANSWER_BYTES,
          ...(req.body === undefined ? {} : { body: { json: req.body } }),
          ...(req.signal ? { signal: req.signal } : {}),
        }),
      {
        isRetryable: (error) => error instanceof HttpTransportError && error.transient,
        isRetryableValue: (answer) => isRetryableStatus(answer.status) || isRateLimited(answer),
        retryAfter: (failure) =>
          "value" in failure ? retryAfterOf(failure.value.headers, Date.now()) : undefined,
        onRetry: (event) => {
          const cause =
            "value" in event.failure ? `answered ${event.failure.value.status}` : "failed on the network";
          this.#options.log.info(
            `${what} ${cause}; try ${event.attempt + 1} of ${event.total} in ${(event.delayMs / 1000).toFixed(1)} s`,
          );
        },
        ...(req.signal ? { signal: req.signal } : {}),
      },
    );
    return { status: response.status, headers: response.headers, body: response.body, what };
  }

  /** A request whose answer must be one of `ok`; anything else is `apiFailure`. */
  async expect(req: ApiRequest, ok: readonly number[], context: string): Promise<ApiAnswer> {
    const answer = await this.request(req);
    if (!ok.includes(answer.status)) throw apiFailure(answer, context);
    return answer;
  }
}
