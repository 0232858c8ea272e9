import type { IncomingMessage, ServerResponse } from "node:http";

export interface RecordedRequest {
  method: string;
  /** Path and query, as the client sent them. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The status sent back; absent while pending, or when the connection was dropped without one. */
  status?: number;
}

/** Appends the request to the log; its status is filled in once the response is sent. */
export function recordRequest(
  log: RecordedRequest[],
  req: IncomingMessage,
  res: ServerResponse,
): RecordedRequest {
  const entry: RecordedRequest = {
    method: req.method ?? "",
    url: req.url ?? "",
    headers: { ...req.headers },
  };
  log.push(entry);
  res.once("finish", () => {
    entry.status = res.statusCode;
  });
  return entry;
}
