import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";

export interface SentResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * One plain node:http(s) exchange on its own connection (no pooling, so nothing lingers after a
 * test); rejects on any transport failure, including a body cut short.
 */
export function sendRequest(
  url: string,
  options: { method?: string; headers?: OutgoingHttpHeaders; body?: string | Buffer; ca?: string } = {},
): Promise<SentResponse> {
  return new Promise((resolve, reject) => {
    const request = url.startsWith("https:") ? httpsRequest : httpRequest;
    const req = request(url, {
      method: options.method ?? "GET",
      headers: options.headers,
      ca: options.ca,
      agent: false,
    });
    req.once("error", reject);
    req.once("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.once("error", reject);
      res.once("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.end(options.body);
  });
}
