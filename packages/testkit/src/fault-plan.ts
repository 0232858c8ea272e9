import type { RecordedRequest } from "./recorded-request.js";

/**
 * What the proxy does with one request: forward it; close the client connection without a
 * response; forward it and cut the connection part-way through the response body (a response
 * without a body is cut before its head, after the upstream has acted on the request); answer
 * itself with a status, after reading the request body (the upstream never sees the request);
 * or wait, then forward.
 */
export type FaultAction =
  | "pass"
  | "drop"
  | "reset-mid-body"
  | { status: number; headers?: Record<string, string>; body?: string }
  | { delayMs: number };

/** Chooses the action for the request that is the `index`-th (from 0) the proxy has received. */
export type FaultPlan = (request: RecordedRequest, index: number) => FaultAction;

export const passAll: FaultPlan = () => "pass";
