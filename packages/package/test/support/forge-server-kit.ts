import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { startHttpServer, type TestCa, type TestServer } from "@pkg/testkit";
import { GitObjects } from "./forge-git-model.js";

/** One API request as a loopback forge saw it (the token is never kept, only who it named). */
export interface ApiCall {
  method: string;
  /** Path below the API root, decoded segments kept encoded as sent. */
  path: string;
  query: URLSearchParams;
  /** The parsed JSON body, when there was one. */
  body: unknown;
  /** The user the Authorization header named; undefined when absent or unknown. */
  user: string | undefined;
  /** Whether an Authorization (or PRIVATE-TOKEN) header came at all. */
  authorized: boolean;
  /** Milliseconds since the server started, when the request arrived. */
  at: number;
  status?: number;
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** What a route returns once it has answered. */
export type Sent = "sent";

export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): Sent {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(value));
  return "sent";
}

export function sendBytes(res: ServerResponse, status: number, bytes: Buffer, contentType: string): Sent {
  res.writeHead(status, { "content-type": contentType });
  res.end(bytes);
  return "sent";
}

/**
 * Holds requests that match until `count` of them wait, then lets them all go in arrival order:
 * makes two announces read the same state before either writes (a race, deterministically).
 */
export class Barrier {
  #waiting: Array<() => void> = [];
  #armed: { count: number; matches: (call: ApiCall) => boolean } | undefined;

  arm(count: number, matches: (call: ApiCall) => boolean): void {
    this.#armed = { count, matches };
  }

  async pass(call: ApiCall): Promise<void> {
    const armed = this.#armed;
    if (!armed?.matches(call)) return;
    await new Promise<void>((resolve) => {
      this.#waiting.push(resolve);
      if (this.#waiting.length >= armed.count) {
        this.#armed = undefined;
        const release = this.#waiting;
        this.#waiting = [];
        for (const go of release) go();
      }
    });
  }
}

/** Refusals for rate: the next `remaining` requests get `status` with these headers. */
export interface RateLimitFault {
  remaining: number;
  status: number;
  headers: Record<string, string>;
}

/** How one forge dialect reads a request: its API prefix, the caller's token, and its refusals. */
export interface ForgeDialect {
  /** `/api/v3` or `/api/v4`. */
  apiPrefix: string;
  /** The path as the call records it (below the prefix). */
  path(req: IncomingMessage, url: URL): string;
  /** The token sent, and whether any credential was sent at all. */
  credential(req: IncomingMessage): { token: string; authorized: boolean };
  messages: { rateLimited: string; notFound: string; unauthorized: string };
}

/**
 * A loopback forge over HTTPS: records every call, answers a planned rate limit, refuses what is
 * outside the API or sent without a known token, holds calls at the barrier, then hands the call to
 * the dialect's routes.
 */
export abstract class LoopbackForge {
  readonly objects = new GitObjects();
  readonly calls: ApiCall[] = [];
  /** Token → login. */
  readonly tokens = new Map<string, string>();
  readonly barrier = new Barrier();
  rateLimit: RateLimitFault | undefined;
  #server: TestServer | undefined;
  readonly #started = performance.now();

  protected abstract readonly dialect: ForgeDialect;
  protected abstract route(call: ApiCall, req: IncomingMessage, res: ServerResponse): Sent;

  get host(): string {
    return (this.#server as TestServer).host;
  }
  get url(): string {
    return (this.#server as TestServer).url;
  }

  protected async listen(ca: TestCa): Promise<void> {
    this.#server = await startHttpServer((req, res) => this.#handle(req, res), { tls: ca });
  }

  stop(): Promise<void> {
    return this.#server?.stop() ?? Promise.resolve();
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<Sent> {
    const { dialect } = this;
    const url = new URL(req.url ?? "/", "https://forge.invalid");
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = raw.length > 0 ? JSON.parse(raw.toString("utf8")) : undefined;
    } catch {
      body = undefined;
    }
    const { token, authorized } = dialect.credential(req);
    const call: ApiCall = {
      method: req.method ?? "GET",
      path: dialect.path(req, url),
      query: url.searchParams,
      body,
      user: this.tokens.get(token),
      authorized,
      at: performance.now() - this.#started,
    };
    this.calls.push(call);
    res.once("finish", () => {
      call.status = res.statusCode;
    });
    if (this.rateLimit && this.rateLimit.remaining > 0) {
      this.rateLimit.remaining -= 1;
      return sendJson(
        res,
        this.rateLimit.status,
        { message: dialect.messages.rateLimited },
        this.rateLimit.headers,
      );
    }
    if (!url.pathname.startsWith(`${dialect.apiPrefix}/`))
      return sendJson(res, 404, { message: dialect.messages.notFound });
    if (call.user === undefined) return sendJson(res, 401, { message: dialect.messages.unauthorized });
    await this.barrier.pass(call);
    return this.route(call, req, res);
  }
}
