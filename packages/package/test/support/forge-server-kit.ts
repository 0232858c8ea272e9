import type { IncomingMessage, ServerResponse } from "node:http";

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
