import { drain, type RegistryResponse } from "./response.js";
import { errorText } from "./transport.js";
import type { BlobSource } from "./types.js";
import { VerifiedBody } from "./upload-body.js";
import {
  isRequestTransient,
  locationOf,
  octetStream,
  type UploadContext,
  unexpected,
} from "./upload-session.js";

/** What became of a streamed upload: the session to commit, or why it has to go on in chunks. */
export type StreamOutcome = { location: URL } | { refused: string };

/** Answers of registries and proxies that take a blob in chunks but not in one request. */
const refusals = new Set([400, 413, 416]);

/**
 * Sends the whole blob in one PATCH without Content-Range (some registries take a range for a
 * chunk and check its size), hashed while it is sent. A refusal, or a transient failure part-way,
 * is returned for the caller to go on in chunks; a source that is not as declared throws exit 65.
 */
export async function patchStreamed(
  ctx: UploadContext,
  source: BlobSource,
  location: URL,
): Promise<StreamOutcome> {
  const body = new VerifiedBody(source, ctx.operation);
  let response: RegistryResponse;
  try {
    response = await ctx.client.request({
      signal: ctx.signal,
      method: "PATCH",
      url: location,
      headers: octetStream,
      body,
      scopes: ctx.scopes,
      operation: ctx.operation,
      retry: false,
    });
  } catch (error) {
    if (body.failure !== undefined) throw body.failure;
    if (isRequestTransient(error)) return { refused: error.message };
    throw error;
  }
  const status = response.status;
  // a registry that answers 202 before the whole body arrived is asked how much it has
  if (status === 202 && body.verified) {
    await drain(response);
    return { location: locationOf(response, location, ctx.operation) };
  }
  if (status === 202 || refusals.has(status)) {
    const text = await errorText(response);
    return { refused: `${ctx.operation}: the streamed upload answered ${status}${text ? ` (${text})` : ""}` };
  }
  throw await unexpected(response, "the streamed upload", ctx.operation);
}
