import http, { type ClientRequest, type IncomingMessage } from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";
import { rootCertificates } from "node:tls";

/** A request body of known length, streamed with backpressure from a stream opened afresh for each send. */
export interface StreamBody {
  length: number;
  open(): Readable;
}

export interface Exchange {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: Buffer | StreamBody | undefined;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
}

/** Keep-alive agents for one client: plain HTTP, and HTTPS trusting Node's roots plus extra CAs. */
export class Agents {
  readonly http: http.Agent;
  readonly https: https.Agent;

  constructor(extraCas: string[]) {
    this.http = new http.Agent({ keepAlive: true, maxSockets: 32 });
    this.https = new https.Agent({
      keepAlive: true,
      maxSockets: 32,
      ...(extraCas.length > 0 ? { ca: [...rootCertificates, ...extraCas] } : {}),
    });
  }

  destroy(): void {
    this.http.destroy();
    this.https.destroy();
  }
}

function timeoutError(message: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(message);
  error.code = "ETIMEDOUT";
  return error;
}

/**
 * Pipes a streamed body into the request. A source failure fails the request with the source's
 * error. An answer that comes before the whole body was sent (a refusal) stops the sending, and
 * the connection, which carries a partial body, is closed once the answer has been read.
 */
function sendStream(req: ClientRequest, body: StreamBody): void {
  const stream = body.open();
  stream.on("error", (error) => req.destroy(error));
  req.once("response", (response) => {
    if (req.writableEnded) return;
    stream.unpipe(req);
    stream.destroy();
    response.once("close", () => req.destroy());
  });
  req.once("close", () => stream.destroy());
  stream.pipe(req);
}

/** Sends one request and resolves with the response head; the body is left to the caller to read or drain. */
export function exchange(agents: Agents, request: Exchange): Promise<IncomingMessage> {
  const secure = request.url.protocol === "https:";
  const send = secure ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...request.headers };
    const body = request.body;
    if (body !== undefined) headers["content-length"] = String(body.length);
    const req = send(request.url, {
      method: request.method,
      headers,
      agent: secure ? agents.https : agents.http,
    });
    let connectTimer: NodeJS.Timeout | undefined;
    req.on("socket", (socket) => {
      if (!socket.connecting) return;
      connectTimer = setTimeout(
        () => req.destroy(timeoutError(`connect timeout after ${request.connectTimeoutMs} ms`)),
        request.connectTimeoutMs,
      );
      socket.once(secure ? "secureConnect" : "connect", () => clearTimeout(connectTimer));
    });
    req.setTimeout(request.idleTimeoutMs, () =>
      req.destroy(timeoutError(`no data for ${request.idleTimeoutMs} ms`)),
    );
    req.on("error", (error) => {
      clearTimeout(connectTimer);
      reject(error);
    });
    req.on("response", (response) => {
      clearTimeout(connectTimer);
      resolve(response);
    });
    if (body === undefined || Buffer.isBuffer(body)) req.end(body);
    else sendStream(req, body);
  });
}

/** Reads a response body into memory, failing once it exceeds `limit` bytes. */
export async function readBody(response: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(response.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    response.destroy();
    throw new RangeError(`response of ${declared} bytes exceeds the limit of ${limit}`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > limit) {
      response.destroy();
      throw new RangeError(`response exceeds the limit of ${limit} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Discards a response body so its socket returns to the pool. */
export function drain(response: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    // `complete` is not enough: until the stream has ended, the socket stays with the response
    if (response.readableEnded || response.destroyed) {
      resolve();
      return;
    }
    response.on("end", () => resolve());
    response.on("error", () => resolve());
    response.on("close", () => resolve());
    response.resume();
  });
}
