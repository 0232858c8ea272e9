import { ExitCode, PkgError } from "@pkg/common";
import type { FaultAction, FaultPlan } from "./fault-plan.js";

export interface RandomFaultOptions {
  seed: number;
  /** Probabilities per request (their sum at most 1). */
  drop?: number;
  serverError?: number;
  tooManyRequests?: number;
  /** The `Retry-After` of injected 429s; default 0. */
  retryAfterSeconds?: number;
  slow?: number;
  /** The delay of a slow response; default 50 ms. */
  slowMs?: number;
  /** After this many injected faults every request passes, so a retrying client always finishes; default 8. */
  maxFaults?: number;
}

const DEFAULT_SLOW_MS = 50;
const DEFAULT_MAX_FAULTS = 8;
const SERVER_ERRORS = [500, 502, 503] as const;

/** mulberry32 over a state mixed from the seed and the request index: the same pair always draws the same numbers. */
function draws(seed: number, index: number): () => number {
  let state = (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function errorBody(code: string): string {
  return JSON.stringify({ errors: [{ code, message: "fault injected by the test proxy" }] });
}

function checkProbabilities(options: RandomFaultOptions): void {
  const values = [options.drop, options.serverError, options.tooManyRequests, options.slow].map(
    (p) => p ?? 0,
  );
  if (values.some((p) => !(p >= 0 && p <= 1)) || values.reduce((a, b) => a + b, 0) > 1) {
    throw new PkgError(ExitCode.Usage, "fault probabilities must each lie in [0, 1] and sum to at most 1");
  }
}

/**
 * A deterministic random fault plan: request `index` under seed `seed` always meets the same
 * fault, and at most `maxFaults` faults are injected in all.
 */
export function randomFaults(options: RandomFaultOptions): FaultPlan {
  checkProbabilities(options);
  const { seed, drop = 0, serverError = 0, tooManyRequests = 0, slow = 0 } = options;
  const retryAfter = String(options.retryAfterSeconds ?? 0);
  const slowMs = options.slowMs ?? DEFAULT_SLOW_MS;
  const maxFaults = options.maxFaults ?? DEFAULT_MAX_FAULTS;
  let injected = 0;
  const choose = (index: number): FaultAction => {
    const next = draws(seed, index);
    const roll = next();
    const variant = next();
    if (roll < drop) return "drop";
    if (roll < drop + serverError) {
      const status = SERVER_ERRORS[Math.floor(variant * SERVER_ERRORS.length)] ?? 500;
      return { status, headers: { "content-type": "application/json" }, body: errorBody("UNAVAILABLE") };
    }
    if (roll < drop + serverError + tooManyRequests) {
      const headers = { "content-type": "application/json", "retry-after": retryAfter };
      return { status: 429, headers, body: errorBody("TOOMANYREQUESTS") };
    }
    if (roll < drop + serverError + tooManyRequests + slow) return { delayMs: slowMs };
    return "pass";
  };
  return (_request, index) => {
    if (injected >= maxFaults) return "pass";
    const action = choose(index);
    if (action !== "pass") injected += 1;
    return action;
  };
}
