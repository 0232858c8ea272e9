import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { listenOnLoopback } from "./listen.js";
import { type RecordedRequest, recordRequest } from "./recorded-request.js";
import type { TestCa } from "./test-ca.js";

export interface TestServer {
  /** `http://127.0.0.1:PORT`, or https when started with a CA. */
  url: string;
  host: string;
  requests: RecordedRequest[];
  stop(): Promise<void>;
}

/** Its result is awaited; any value is accepted so that `(req, res) => res.end(...)` type-checks. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

/** Answers a handler that threw with a 500 carrying its message, so the test sees the failure. */
function guard(handler: RequestHandler): RequestHandler {
  return async (req, res) => {
    try {
      await handler(req, res);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(`test server handler failed: ${message}\n`);
    }
  };
}

/** Creates a node:http server, or node:https with a certificate for loopback issued by `tls`. */
export async function createLoopbackServer(handler: RequestHandler, tls?: TestCa): Promise<Server> {
  if (!tls) return createServer(handler);
  const cert = await tls.issue([]);
  return createHttpsServer({ cert: cert.certPem, key: cert.keyPem }, handler);
}

/** A loopback HTTP(S) server around a handler, logging every request it receives. */
export async function startHttpServer(
  handler: RequestHandler,
  options: { tls?: TestCa } = {},
): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const guarded = guard(handler);
  const server = await createLoopbackServer((req, res) => {
    recordRequest(requests, req, res);
    return guarded(req, res);
  }, options.tls);
  const listening = await listenOnLoopback(server);
  return {
    url: `${options.tls ? "https" : "http"}://${listening.host}`,
    host: listening.host,
    requests,
    stop: () => listening.close(),
  };
}
