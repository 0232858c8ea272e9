import { type Agent, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import { endToEndHeaders, rewriteUpstreamUrls } from "./proxy-headers.js";
import type { RecordedRequest } from "./recorded-request.js";

export interface ForwardOptions {
  upstream: URL;
  proxyOrigin: string;
  agent: Agent;
  /** Trust anchor for an https upstream. */
  ca?: string;
  /** Close the client connection after part of the response body instead of relaying it all. */
  cutMidBody: boolean;
}

function hasNoBody(req: IncomingMessage, upstreamRes: IncomingMessage): boolean {
  const status = upstreamRes.statusCode ?? 0;
  return (
    req.method === "HEAD" ||
    status === 204 ||
    status === 304 ||
    (status >= 100 && status < 200) ||
    upstreamRes.headers["content-length"] === "0"
  );
}

/**
 * Relays the response up to half its declared length (or its first chunk when the length is not
 * declared), then closes the client connection, so the client sees a body that ends early.
 */
function relayPartOfBody(upstreamRes: IncomingMessage, res: ServerResponse): void {
  const declared = Number(upstreamRes.headers["content-length"]);
  const limit = Number.isFinite(declared) && declared >= 1 ? Math.floor(declared / 2) : undefined;
  let sent = 0;
  const cut = () => {
    upstreamRes.destroy();
    res.socket?.destroy();
  };
  upstreamRes.on("data", (chunk: Buffer) => {
    const part = limit === undefined ? chunk : chunk.subarray(0, limit - sent);
    sent += part.length;
    if (limit !== undefined && sent < limit) {
      res.write(part);
      return;
    }
    upstreamRes.pause();
    res.write(part, cut);
  });
  upstreamRes.once("end", cut);
}

/** Forwards one request to the upstream, streaming both bodies, and records the status it relays. */
export function forward(
  req: IncomingMessage,
  res: ServerResponse,
  entry: RecordedRequest,
  options: ForwardOptions,
): void {
  const { upstream } = options;
  const headers = endToEndHeaders(req.headers);
  headers.host = upstream.host;
  const request = upstream.protocol === "https:" ? httpsRequest : httpRequest;
  const upstreamReq = request({
    protocol: upstream.protocol,
    hostname: upstream.hostname,
    port: upstream.port,
    method: req.method,
    path: req.url,
    headers,
    agent: options.agent,
    ca: options.ca,
  });
  upstreamReq.on("response", (upstreamRes) => {
    const status = upstreamRes.statusCode ?? 502;
    if (options.cutMidBody && hasNoBody(req, upstreamRes)) {
      upstreamRes.resume();
      res.socket?.destroy();
      return;
    }
    const outHeaders = endToEndHeaders(upstreamRes.headers);
    rewriteUpstreamUrls(outHeaders, upstream.origin, options.proxyOrigin);
    entry.status = status;
    res.writeHead(status, upstreamRes.statusMessage, outHeaders);
    if (options.cutMidBody) relayPartOfBody(upstreamRes, res);
    else upstreamRes.pipe(res);
  });
  upstreamReq.on("error", (error) => {
    if (res.headersSent) {
      res.socket?.destroy();
      return;
    }
    res.writeHead(502, { "content-type": "text/plain" });
    res.end(`test proxy: upstream failed: ${error.message}\n`);
  });
  // A client that goes away mid-exchange takes the upstream exchange with it.
  res.once("close", () => {
    if (!res.writableFinished) upstreamReq.destroy();
  });
  req.pipe(upstreamReq);
}
