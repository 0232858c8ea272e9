import type { Logger } from "@pkg/common";
import {
  displayUrl,
  type HttpClient,
  type HttpRequest,
  type HttpResponse,
  HttpTransportError,
  isRetryableStatus,
  type RetryPolicy,
  SPEC_BACKOFF,
  withRetries,
} from "@pkg/net";

/** The spec's retry of one upstream-listing page (the push backoff), independent of `concurrency.max_retries`. */
export const LISTING_RETRY: RetryPolicy = { retries: 5, ...SPEC_BACKOFF };

export interface ListingRetryDeps {
  http: HttpClient;
  log: Logger;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

/**
 * Fetches one listing page, retrying transient failures (5xx, 429, transport faults) per
 * `LISTING_RETRY`, a `Retry-After` honoured up to its cap. Resolves with the last answer, whatever
 * its status, once it is final or the retries are spent; rejects with the last transport error
 * when no answer came.
 */
export function fetchListingPage(request: HttpRequest, deps: ListingRetryDeps): Promise<HttpResponse> {
  return withRetries(LISTING_RETRY, () => deps.http.fetch(request), {
    isRetryable: (error) => error instanceof HttpTransportError && error.transient,
    isRetryableValue: (response) => isRetryableStatus(response.status),
    retryAfter: (failure) => ("value" in failure ? failure.value.headers["retry-after"] : undefined),
    onRetry: ({ attempt, delayMs, failure }) => {
      const what =
        "value" in failure
          ? `${displayUrl(request.url)}: HTTP ${failure.value.status}`
          : (failure.error as HttpTransportError).message;
      deps.log.warn(`${what}; retry ${attempt}/${LISTING_RETRY.retries} in ${(delayMs / 1000).toFixed(1)} s`);
    },
    sleep: deps.sleep,
    random: deps.random,
  });
}
