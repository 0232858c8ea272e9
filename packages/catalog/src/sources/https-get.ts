import type { IncomingHttpHeaders } from "node:http";
import { type Agent, request } from "node:https";
import { IndexFileError } from "@pkg/index/read";

export interface HttpsGetOptions {
  agent: Agent;
  headers?: Record<string, string>;
  /** A 200 body larger than this is refused while it streams in. */
  maxBytes: number;
  /** Idle time after which the request counts as failed. */
  timeoutMs: number;
  /** How the URL is named in messages (without credentials). */
  where: string;
}

export interface HttpsResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body of a 200; empty for any other status (which is drained unread). */
  body: Uint8Array;
}

/** A failure of the connection itself (refused, reset, timed out, TLS): worth retrying. */
export class TransportError extends Error {}

/** One GET over node:https, redirects NOT followed (the 3xx is returned like any status). */
export function httpsGet(url: string, options: HttpsGetOptions): Promise<HttpsResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "GET", agent: options.agent, headers: options.headers }, (res) => {
      const status = res.statusCode ?? 0;
      if (status !== 200) {
        res.resume();
        res.on("end", () => resolve({ status, headers: res.headers, body: new Uint8Array(0) }));
        res.on("error", (error) => reject(new TransportError(error.message)));
        return;
      }
      const declared = Number(res.headers["content-length"]);
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        req.destroy();
        reject(
          new IndexFileError(options.where, `${declared} bytes, more than the ${options.maxBytes} allowed`),
        );
        return;
      }
      const chunks: Buffer[] = [];
      let total = 0;
      res.on("data", (chunk: Buffer) => {
        total += chunk.length;
        if (total > options.maxBytes) {
          req.destroy();
          reject(new IndexFileError(options.where, `more than the ${options.maxBytes} bytes allowed`));
          return;
        }
        chunks.push(chunk);
      });
      res.on("end", () => {
        if (!res.complete) reject(new TransportError("connection closed before the whole body arrived"));
        else resolve({ status, headers: res.headers, body: joinChunks(chunks, total) });
      });
      res.on("error", (error) => reject(new TransportError(error.message)));
    });
    req.setTimeout(options.timeoutMs, () => req.destroy(new Error(`no answer in ${options.timeoutMs} ms`)));
    req.on("error", (error) => reject(new TransportError(error.message)));
    req.end();
  });
}

/** One exactly sized array of its own (Buffer.concat may hand out a slice of a shared pool). */
function joinChunks(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}
