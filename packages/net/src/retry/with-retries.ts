import { setTimeout as delay } from "node:timers/promises";
import { backoffDelay, type RetryPolicy } from "./policy.js";
import { parseRetryAfter } from "./retry-after.js";

/** What an attempt ended with when it is judged worth another try: an error, or a value. */
export type RetryFailure<T> = { error: unknown } | { value: T };

/** Told before each wait: the attempt that failed (1-based), of how many at most, and the wait. */
export interface RetryEvent<T> {
  attempt: number;
  total: number;
  delayMs: number;
  /** Whether the wait is the one a `Retry-After` asked for (clamped), not the backoff. */
  retryAfter: boolean;
  failure: RetryFailure<T>;
}

export interface RetryOptions<T> {
  /** Whether a thrown error is worth another attempt (default: none is). */
  isRetryable?: (error: unknown) => boolean;
  /**
   * Whether a returned value is worth another attempt (an HTTP 503 answer, say; default: none
   * is). A value so judged on the last attempt is returned as it is.
   */
  isRetryableValue?: (value: T) => boolean;
  /** The `Retry-After` header a failure carries, if any; honoured in place of the backoff. */
  retryAfter?: (failure: RetryFailure<T>) => string | readonly string[] | undefined;
  /** Called before each wait (logging). */
  onRetry?: (event: RetryEvent<T>) => void;
  /** Waits (tests pass one that does not); default a timer that the signal cancels. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A number in [0, 1) for the jitter (default Math.random). */
  random?: () => number;
  /** The clock a `Retry-After` date is read against (default Date.now). */
  now?: () => number;
  /** Stops retrying: an abort rejects with the signal's reason, before an attempt or during a wait. */
  signal?: AbortSignal;
}

/** A timer the signal cancels, rejecting with the signal's reason as an aborted attempt does. */
async function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, signal === undefined ? {} : { signal });
  } catch (error) {
    throw signal?.aborted ? signal.reason : error;
  }
}

/**
 * Runs `attempt` (given its 1-based number) until it returns a value not judged retryable, throws
 * an error not judged retryable (rethrown as it is), or the policy's attempts run out (the last
 * error rethrown, or the last value returned). Between attempts it waits the policy's backoff, or
 * what a `Retry-After` asks for, clamped to [minDelayMs, maxDelayMs].
 */
export async function withRetries<T>(
  policy: RetryPolicy,
  attempt: (n: number) => Promise<T>,
  options: RetryOptions<T> = {},
): Promise<T> {
  const total = Math.max(0, policy.retries) + 1;
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  for (let n = 1; ; n++) {
    options.signal?.throwIfAborted();
    let failure: RetryFailure<T>;
    try {
      const value = await attempt(n);
      if (n >= total || !options.isRetryableValue?.(value)) return value;
      failure = { value };
    } catch (error) {
      if (n >= total || !options.isRetryable?.(error)) throw error;
      failure = { error };
    }
    const asked = parseRetryAfter(options.retryAfter?.(failure), (options.now ?? Date.now)(), {
      minMs: policy.minDelayMs ?? 0,
      maxMs: policy.maxDelayMs,
    });
    const delayMs = asked ?? backoffDelay(policy, n, random());
    options.onRetry?.({ attempt: n, total, delayMs, retryAfter: asked !== undefined, failure });
    await sleep(delayMs, options.signal);
  }
}
