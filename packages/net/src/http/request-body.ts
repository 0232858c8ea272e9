import { PassThrough, type Readable } from "node:stream";

/**
 * A request body that can be sent more than once (a retry, a 307/308 redirect, the answer to an
 * auth challenge): each send opens it afresh.
 */
export interface StreamBody {
  /** Its length in bytes, sent as `content-length`; without one the body goes chunked. */
  length?: number;
  open(): Readable;
}

/** A request body: bytes, text, a JSON value (sent with `content-type: application/json`), or a stream. */
export type HttpBody = Buffer | Uint8Array | string | { json: unknown } | StreamBody;

/** One send of a body: what undici is given, the headers it implies, and the stream opened, if any. */
export interface BodySend {
  body: Buffer | Uint8Array | string | Readable;
  headers: Record<string, string>;
  stream?: Readable;
  /** For a stream body: the error its source failed with during this send, if it did. */
  sourceFailure?: () => unknown;
}

/**
 * Relays a stream body, noting an error of the source itself: a request cut by the network
 * destroys the relay (and so the source) without that counting as a failure of the source.
 */
function relay(source: Readable): { stream: Readable; failure: () => unknown } {
  let failure: unknown;
  const stream = new PassThrough();
  source.once("error", (error) => {
    failure = error;
    stream.destroy(error);
  });
  stream.once("close", () => source.destroy());
  source.pipe(stream);
  return { stream, failure: () => failure };
}

function isStreamBody(body: HttpBody): body is StreamBody {
  return typeof body === "object" && "open" in body && typeof body.open === "function";
}

function isJsonBody(body: HttpBody): body is { json: unknown } {
  return typeof body === "object" && !(body instanceof Uint8Array) && "json" in body;
}

/**
 * Prepares one send of `body`: a JSON value is serialised (its content type added unless the
 * caller named one), a stream body opened afresh with its length declared when known.
 */
export function openBody(body: HttpBody, callerHeaders: Record<string, string>): BodySend {
  if (typeof body === "string" || body instanceof Uint8Array) return { body, headers: {} };
  if (isJsonBody(body)) {
    const headers: Record<string, string> =
      "content-type" in callerHeaders ? {} : { "content-type": "application/json" };
    return { body: JSON.stringify(body.json), headers };
  }
  if (isStreamBody(body)) {
    const { stream, failure } = relay(body.open());
    const headers: Record<string, string> =
      body.length === undefined ? {} : { "content-length": String(body.length) };
    return { body: stream, headers, stream, sourceFailure: failure };
  }
  throw new TypeError("unsupported request body");
}

/** Headers that describe a body, dropped when a redirect turns the request into a GET without one. */
export const BODY_HEADERS = ["content-type", "content-length", "content-encoding", "content-language"];
