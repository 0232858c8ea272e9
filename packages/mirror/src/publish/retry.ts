import { describeError, ExitCode, exitCodeName, type Logger, PkgError } from "@pkg/common";
import { SPEC_BACKOFF, withRetries } from "@pkg/net";

export interface PushRetryOptions {
  /** `concurrency.max_retries`: extra attempts after the first (0 = a single attempt). */
  maxRetries: number;
  sleep: (ms: number) => Promise<void>;
  /** A number in [0, 1) for the jitter. */
  random: () => number;
  log: Logger;
  /** What is pushed, for messages: `registry/ns/tool:1.2.3_20250101120000 (linux/amd64)`. */
  what: string;
}

export type RetryOutcome<T> =
  | { ok: true; value: T; attempts: number }
  | { ok: false; error: PkgError; attempts: number };

/**
 * Runs `attempt` until it succeeds, retrying only failures with exit 75 (transient) and at most
 * `maxRetries` times, with the spec's backoff between attempts. Anything else (69 unavailable,
 * 80 auth rejected, bad input, internal errors) ends at once. The failure it ends with keeps the
 * last exit code and says which of the two ways it gave up.
 */
export async function withPushRetries<T>(
  attempt: () => Promise<T>,
  options: PushRetryOptions,
): Promise<RetryOutcome<T>> {
  const { maxRetries, log, what } = options;
  const total = maxRetries + 1;
  let n = 0;
  try {
    const value = await withRetries(
      { ...SPEC_BACKOFF, retries: maxRetries },
      (attemptNumber) => {
        n = attemptNumber;
        if (n > 1) log.info(`push attempt ${n}/${total}: ${what}`);
        return attempt();
      },
      {
        isRetryable: (error) => describeError(error).exitCode === ExitCode.Transient,
        onRetry: ({ delayMs, failure }) => {
          const { line } = describeError("error" in failure ? failure.error : undefined);
          log.warn(`${what}: ${line}; retrying in ${(delayMs / 1000).toFixed(1)} s`);
        },
        sleep: options.sleep,
        random: options.random,
      },
    );
    return { ok: true, value, attempts: n };
  } catch (error) {
    const { exitCode, line } = describeError(error);
    if (exitCode !== ExitCode.Transient) {
      const where = total > 1 ? ` on attempt ${n}/${total}` : "";
      const message = `${what}: push failed${where} with exit ${exitCode} (${exitCodeName(exitCode)}), which is never retried (only exit 75 is, up to concurrency.max_retries = ${maxRetries}): ${line}`;
      return { ok: false, error: new PkgError(exitCode, message, { cause: error }), attempts: n };
    }
    const message = `${what}: push gave up after ${n} attempt${n === 1 ? "" : "s"}: the retry budget concurrency.max_retries = ${maxRetries} is exhausted; last failure: ${line}`;
    return { ok: false, error: new PkgError(exitCode, message, { cause: error }), attempts: n };
  }
}
