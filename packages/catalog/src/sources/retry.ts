export interface RetryPolicy {
  attempts: number;
  /** Wait before the second attempt; each later wait is four times longer. */
  firstDelayMs: number;
  sleep: (ms: number) => Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, firstDelayMs: 500, sleep };

/** Runs `attempt` until it returns, or until `isRetryable` says no or the attempts run out. */
export async function withRetries<T>(
  policy: RetryPolicy,
  isRetryable: (error: unknown) => boolean,
  attempt: () => Promise<T>,
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (n >= policy.attempts || !isRetryable(error)) throw error;
      await policy.sleep(policy.firstDelayMs * 4 ** (n - 1));
    }
  }
}
