import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { type RecordedRequest, startHttpServer } from "@pkg/testkit";

/** An answer the webhook gives to one request. */
export interface WebhookAnswer {
  status: number;
  /** Sent as JSON. */
  json?: unknown;
  headers?: Record<string, string>;
}

/** A loopback chat webhook (Discord-style) recording every JSON body posted to its secret path. */
export interface ChatWebhook {
  /** The webhook URL, a token-like secret in its path, as a CI secret would hold it. */
  url: string;
  /** The token part of the path, to check it is never printed. */
  token: string;
  /** Every body posted to the webhook path, parsed, in order (retried ones included). */
  bodies: unknown[];
  requests: RecordedRequest[];
  /** Answers for the next requests, in order; once they run out every request gets 204. */
  plan(...answers: WebhookAnswer[]): void;
  stop(): Promise<void>;
}

async function readAll(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startChatWebhook(): Promise<ChatWebhook> {
  const token = randomBytes(34).toString("base64url");
  const path = `/api/webhooks/123456789012345678/${token}`;
  const bodies: unknown[] = [];
  const planned: WebhookAnswer[] = [];
  const server = await startHttpServer(async (req, res) => {
    const text = await readAll(req);
    if (req.method !== "POST" || req.url !== path) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: "Unknown Webhook", code: 10015 }));
      return;
    }
    if (!String(req.headers["content-type"]).startsWith("application/json")) {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: "Cannot send an empty message", code: 50006 }));
      return;
    }
    bodies.push(JSON.parse(text));
    const answer = planned.shift() ?? { status: 204 };
    if (answer.json === undefined) {
      res.writeHead(answer.status, answer.headers ?? {});
      res.end();
      return;
    }
    res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
    res.end(JSON.stringify(answer.json));
  });
  return {
    url: `${server.url}${path}`,
    token,
    bodies,
    requests: server.requests,
    plan: (...answers) => planned.push(...answers),
    stop: () => server.stop(),
  };
}
