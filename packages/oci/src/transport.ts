import { ExitCode, PkgError } from "@pkg/common";
import {
  type Credential,
  classifyNetworkError,
  createHttpClient,
  type HttpMethod,
  HttpTransportError,
  isRetryableStatus,
  type PooledHttpClient,
  REDIRECT_STATUSES,
  type RetryPolicy,
  redirectedMethod,
  resolveCredential,
  type StreamBody,
  withRetries,
} from "@pkg/net";
import { abortError, destroyOnAbort, raceAbort } from "./abort.js";
import { Authenticator } from "./auth.js";
import { describeRegistryError } from "./registry-errors.js";
import { drain, type RegistryResponse, readBody } from "./response.js";

export interface RegistryClientOptions {
  /** Feeds the credential ladder and the CA variables (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Extra CA certificates (PEM) to trust beside Node's roots and those the CA variables name. */
  ca?: string | string[];
  /** A credential to use instead of the ladder; null means anonymous. */
  credential?: Credential | null;
  /**
   * true: plain HTTP; false: HTTPS. By default HTTPS, except that a loopback host which does
   * not speak TLS is spoken to in plain HTTP (as Docker allows for localhost).
   */
  plainHttp?: boolean;
  retry?: Partial<RetryPolicy>;
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
  userAgent?: string;
}

export interface RegistryRequest {
  method: "GET" | "HEAD" | "PUT" | "POST" | "PATCH" | "DELETE";
  /** A path on the registry (`/v2/...`) or an absolute URL (an upload location). */
  url: string | URL;
  headers?: Record<string, string>;
  /** A stream body is opened again for each send (a retry, the answer to an auth challenge). */
  body?: Buffer | StreamBody;
  /** Token scopes the request needs (`repository:ns/tool:pull`). */
  scopes: string[];
  /** For messages: what is being done, naming the registry and repository. */
  operation: string;
  /** Retry transient failures here (default); false: throw exit 75 at once, the caller recovers. */
  retry?: boolean;
  /** Follow redirects (blob downloads); Authorization never goes to another origin. */
  followRedirects?: boolean;
  /**
   * Cuts the request: a wait for a token or between retries rejects at once (see `abortError`),
   * and the request itself is cut in flight, its connection closed, whether it is being sent,
   * awaiting its answer or having its answer's body read.
   */
  signal?: AbortSignal;
}

/** The registry client's configuration of the one retry policy: 250 ms doubling, 30 s cap, equal jitter. */
export const REGISTRY_RETRY: RetryPolicy = {
  retries: 3,
  firstDelayMs: 250,
  maxDelayMs: 30_000,
  jitter: { below: 0.5, above: 0 },
};

/** A failure of one try that another try may heal; `retryAfter` is what the registry asked for. */
class TransientFailure extends Error {
  constructor(
    message: string,
    readonly retryAfter?: string,
  ) {
    super(message);
  }
}

const MAX_ERROR_BODY = 64 * 1024;
const MAX_REDIRECTS = 5;

/** Loopback hosts get plain HTTP, as Docker allows for localhost. */
export function isLoopbackHost(host: string): boolean {
  const name = host
    .replace(/:[0-9]+$/, "")
    .replace(/^\[(.*)\]$/, "$1")
    .toLowerCase();
  return name === "localhost" || name === "::1" || /^127\.[0-9]+\.[0-9]+\.[0-9]+$/.test(name);
}

/** A TLS handshake answered in plain HTTP (or not at all): the server does not speak TLS. */
function speaksPlainHttp(error: unknown): boolean {
  const err = error as NodeJS.ErrnoException;
  return (
    err?.code === "EPROTO" ||
    err?.code === "ERR_SSL_WRONG_VERSION_NUMBER" ||
    err?.code === "ECONNRESET" ||
    /wrong version number|packet length too long|http request/i.test(err?.message ?? "")
  );
}

/** The error body of a response, as a short line (empty when unreadable). */
export async function errorText(response: RegistryResponse): Promise<string> {
  try {
    return describeRegistryError(await readBody(response, MAX_ERROR_BODY));
  } catch {
    return "";
  }
}

/**
 * HTTP client for one registry host: keep-alive agents, TLS with extra CAs, the host's
 * credential and challenge-driven auth, bounded retries of transient failures, and failures
 * classified by exit code (69 unavailable, 75 transient, 80 auth rejected).
 */
export class RegistryClient {
  readonly host: string;
  readonly #options: RegistryClientOptions;
  readonly #policy: RetryPolicy;
  readonly #auth: Authenticator;
  #http: PooledHttpClient | undefined;
  #base: Promise<URL> | undefined;
  #credential: Promise<Credential | undefined> | undefined;
  /** Set once a streamed blob upload to this host had to fall back to chunks: later ones go in chunks. */
  chunkedUploads = false;

  constructor(host: string, options: RegistryClientOptions = {}) {
    this.host = host;
    this.#options = options;
    this.#policy = { ...REGISTRY_RETRY, ...options.retry };
    this.#auth = new Authenticator(
      host,
      () => this.#resolveCredential(),
      async (request) => this.#exchange(request.method, request.url, request.headers, request.body),
    );
  }

  /** `https://host/`, or `http://host/` for a plain-HTTP registry (see `plainHttp`). */
  base(signal?: AbortSignal, operation = `reach ${this.host}`): Promise<URL> {
    this.#base ??= this.#chooseScheme();
    // the probe may be shared with other requests: only this caller's wait is cut
    return raceAbort(this.#base, signal, operation);
  }

  async #chooseScheme(): Promise<URL> {
    const secure = new URL(`https://${this.host}/`);
    const plain = new URL(`http://${this.host}/`);
    const choice = this.#options.plainHttp;
    if (choice !== undefined) return choice ? plain : secure;
    if (!isLoopbackHost(this.host)) return secure;
    // Plain HTTP is asked first: it is what loopback registries speak, and it costs no TLS set-up.
    try {
      const response = await this.#exchange("GET", new URL("/v2/", plain), {});
      const body = await readBody(response, MAX_ERROR_BODY).catch(() => Buffer.alloc(0));
      return response.status === 400 && /https/i.test(body.toString("utf8")) ? secure : plain;
    } catch {
      // no HTTP answer: a TLS server closing on a plain request, or a transient fault; ask in TLS
    }
    try {
      await drain(await this.#exchange("GET", new URL("/v2/", secure), {}));
      return secure;
    } catch (error) {
      return speaksPlainHttp(error) ? plain : secure;
    }
  }

  /** The retry bounds this client applies (also used by the upload's own chunk restarts). */
  get retryPolicy(): RetryPolicy {
    return this.#policy;
  }

  #resolveCredential(): Promise<Credential | undefined> {
    if (this.#options.credential !== undefined) return Promise.resolve(this.#options.credential ?? undefined);
    this.#credential ??= resolveCredential(
      this.host,
      this.#options.env === undefined ? {} : { env: this.#options.env },
    );
    return this.#credential;
  }

  /** The one HTTP client, shared by every request to this host; credentials come from the authenticator. */
  #client(): PooledHttpClient {
    const given = this.#options.ca;
    this.#http ??= createHttpClient({
      env: this.#options.env ?? process.env,
      userAgent: this.#options.userAgent ?? "pkg-oci",
      ca: typeof given === "string" ? [given] : (given ?? []),
      connectTimeoutMs: this.#options.connectTimeoutMs ?? 30_000,
    });
    return this.#http;
  }

  /**
   * One request, no redirect followed and no credential added. A network failure rejects with
   * the underlying error (classified by the caller), a failing stream body with its own error.
   */
  async #exchange(
    method: HttpMethod,
    url: URL,
    headers: Record<string, string>,
    body?: Buffer | StreamBody,
    abort?: { signal: AbortSignal; operation: string },
  ): Promise<RegistryResponse> {
    try {
      const response = await this.#client().open({
        url,
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        auth: "none",
        redirect: "manual",
        timeoutMs: this.#options.idleTimeoutMs ?? 60_000,
        // the signal closes the connection, whether the request is being sent or answered
        ...(abort === undefined ? {} : { signal: abort.signal }),
      });
      if (abort !== undefined) destroyOnAbort(response.body, abort.signal, abort.operation);
      return response;
    } catch (error) {
      if (abort?.signal.aborted) throw abortError(abort.signal, abort.operation);
      if (error instanceof HttpTransportError && error.cause !== undefined) throw error.cause;
      throw error;
    }
  }

  /**
   * Sends a request and resolves with the response, whose body the caller reads or drains.
   * Never resolves with 401/403 (exit 80) or a transient status (retried, then exit 75).
   */
  async request(request: RegistryRequest): Promise<RegistryResponse> {
    const policy = request.retry === false ? { ...this.#policy, retries: 0 } : this.#policy;
    let attempts = 0;
    const signal = request.signal;
    try {
      return await withRetries(
        policy,
        (n) => {
          attempts = n;
          return this.#try(request);
        },
        {
          isRetryable: (error) => error instanceof TransientFailure,
          retryAfter: (failure) =>
            "error" in failure && failure.error instanceof TransientFailure
              ? failure.error.retryAfter
              : undefined,
          ...(signal === undefined ? {} : { signal }),
        },
      );
    } catch (error) {
      if (signal?.aborted) throw abortError(signal, request.operation);
      if (!(error instanceof TransientFailure)) throw error;
      const tries = attempts > 1 ? ` after ${attempts} attempts` : "";
      throw new PkgError(ExitCode.Transient, `${request.operation}: ${error.message}${tries}`);
    }
  }

  /** One try; a transient status or network failure throws a `TransientFailure`, an unreachable host exit 69. */
  async #try(request: RegistryRequest): Promise<RegistryResponse> {
    let response: RegistryResponse;
    try {
      response = await this.#attempt(request);
    } catch (error) {
      if (error instanceof PkgError) {
        if (error.exitCode !== ExitCode.Transient) throw error;
        throw new TransientFailure(error.message);
      }
      const failure = this.#describeNetworkError(error);
      if (classifyNetworkError(error) === "unavailable") {
        throw new PkgError(ExitCode.Unavailable, `${request.operation}: ${failure}`, { cause: error });
      }
      throw new TransientFailure(failure);
    }
    const status = response.status;
    if (!isRetryableStatus(status)) return response;
    const text = await errorText(response);
    const retryAfter = response.headers["retry-after"];
    throw new TransientFailure(`${this.host} answered ${status}${text ? ` (${text})` : ""}`, retryAfter);
  }

  #describeNetworkError(error: unknown): string {
    const err = error as NodeJS.ErrnoException;
    const message = err?.message ?? String(error);
    const code = err?.code && !message.includes(err.code) ? `${err.code}: ` : "";
    return `cannot reach ${this.host} (${code}${message})`;
  }

  /** One try: the auth handshake (one retry after learning a challenge) and redirects. */
  async #attempt(request: RegistryRequest): Promise<RegistryResponse> {
    const signal = request.signal;
    const abort = signal === undefined ? undefined : { signal, operation: request.operation };
    const base = await this.base(signal, request.operation);
    let url = new URL(request.url, base);
    let method: HttpMethod = request.method;
    let withBody = true;
    let authRetried = false;
    for (let redirects = 0; ; ) {
      const ours = url.origin === base.origin;
      const headers = { ...request.headers };
      // a token fetch may be shared with other requests: only this request's wait is cut
      const sent = ours
        ? await raceAbort(
            this.#auth.authorization(request.scopes, request.operation),
            signal,
            request.operation,
          )
        : undefined;
      if (sent !== undefined) headers.authorization = sent;
      const body = withBody ? request.body : undefined;
      const response = await this.#exchange(method, url, headers, body, abort);
      const status = response.status;
      if (ours && (status === 401 || status === 403)) {
        const text = await errorText(response);
        const challenge = response.headers["www-authenticate"];
        if (status === 401 && !authRetried && (await this.#auth.learn(challenge, request.scopes, sent))) {
          authRetried = true;
          continue;
        }
        throw await this.#auth.rejection(request.operation, status, text);
      }
      const location = response.headers.location;
      if (request.followRedirects && REDIRECT_STATUSES.has(status) && location) {
        await drain(response);
        if (++redirects > MAX_REDIRECTS) {
          throw new PkgError(
            ExitCode.Unavailable,
            `${request.operation}: more than ${MAX_REDIRECTS} redirects`,
          );
        }
        url = new URL(location, url);
        const next = redirectedMethod(status, method);
        method = next.method;
        withBody &&= next.body;
        continue;
      }
      return response;
    }
  }

  /** Closes the pooled connections. */
  async close(): Promise<void> {
    await this.#http?.close();
  }
}
