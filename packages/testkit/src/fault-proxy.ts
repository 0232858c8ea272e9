import { once } from "node:events";
import { createServer, Agent as HttpAgent, type IncomingMessage, type ServerResponse } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import { setTimeout as sleep } from "node:timers/promises";
import { type FaultAction, type FaultPlan, passAll } from "./fault-plan.js";
import { listenOnLoopback } from "./listen.js";
import { forward } from "./proxy-forward.js";
import { type RecordedRequest, recordRequest } from "./recorded-request.js";

export interface FaultProxy {
  /** `127.0.0.1:PORT`: use it where the upstream's host would go (e.g. image references). */
  host: string;
  url: string;
  /** Every request received, with the status the client got (absent when it got none). */
  requests: RecordedRequest[];
  setPlan(plan: FaultPlan): void;
  stop(): Promise<void>;
}

async function answerItself(
  req: IncomingMessage,
  res: ServerResponse,
  action: { status: number; headers?: Record<string, string>; body?: string },
): Promise<void> {
  // Read the request body first: a client still sending it would otherwise see a broken pipe, not the status.
  req.resume();
  if (!req.readableEnded) await once(req, "end");
  res.writeHead(action.status, action.headers);
  res.end(action.body);
}

/**
 * A loopback reverse proxy to `upstreamUrl` that applies a fault plan to each request. It speaks
 * plain HTTP to its clients; an https upstream is verified against `options.ca`. `Location` and
 * `Link` headers naming the upstream are rewritten to name the proxy. Token realms are not
 * rewritten: clients fetch tokens from the token server directly.
 */
export async function startFaultProxy(
  upstreamUrl: string,
  plan: FaultPlan = passAll,
  options: { ca?: string } = {},
): Promise<FaultProxy> {
  const upstream = new URL(upstreamUrl);
  const requests: RecordedRequest[] = [];
  const agent =
    upstream.protocol === "https:" ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const stopping = new AbortController();
  let currentPlan = plan;
  let proxyOrigin = "";

  async function apply(
    req: IncomingMessage,
    res: ServerResponse,
    entry: RecordedRequest,
    action: FaultAction,
  ) {
    if (action === "drop") {
      req.socket.destroy();
      return;
    }
    if (typeof action === "object" && "status" in action) return answerItself(req, res, action);
    if (typeof action === "object" && "delayMs" in action) {
      await sleep(action.delayMs, undefined, { signal: stopping.signal }).catch(() => undefined);
      if (stopping.signal.aborted || req.destroyed) return;
    }
    forward(req, res, entry, {
      upstream,
      proxyOrigin,
      agent,
      ca: options.ca,
      cutMidBody: action === "reset-mid-body",
    });
  }

  const server = createServer((req, res) => {
    const entry = recordRequest(requests, req, res);
    let action: FaultAction;
    try {
      action = currentPlan(entry, requests.length - 1);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(`test proxy: fault plan failed: ${message}\n`);
      return;
    }
    apply(req, res, entry, action).catch((error: unknown) => {
      res.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
  const listening = await listenOnLoopback(server);
  proxyOrigin = `http://${listening.host}`;
  let stopped: Promise<void> | undefined;
  return {
    host: listening.host,
    url: proxyOrigin,
    requests,
    setPlan(next) {
      currentPlan = next;
    },
    stop() {
      stopped ??= (async () => {
        stopping.abort();
        await listening.close();
        agent.destroy();
      })();
      return stopped;
    },
  };
}
