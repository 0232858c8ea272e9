import { drain as drainBody, type HttpOpenResponse, readBody as readWholeBody } from "@pkg/net";

/** An answer of the registry (or its token realm), its body still to be read or drained. */
export type RegistryResponse = HttpOpenResponse;

/** Reads a response body into memory, failing (`HttpBodyTooLargeError`) once it exceeds `limit` bytes. */
export function readBody(response: RegistryResponse, limit: number): Promise<Buffer> {
  return readWholeBody(response.body, new URL(response.url), limit, response.headers["content-length"]);
}

/** Discards a response body so its connection returns to the pool. */
export function drain(response: RegistryResponse): Promise<void> {
  return drainBody(response.body);
}
