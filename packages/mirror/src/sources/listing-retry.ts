import type { Logger } from "@pkg/common";
import type { HttpClient, HttpRequest, HttpResponse } from "@pkg/net";
import { displayUrl, HttpTransportError } from "@pkg/net";
import { PUSH_BACKOFF, pushBackoffMs } from "../publish/backoff.js";

/** The spec's retry of one upstream-listing page, independent of `concurrency.max_retries`. */
export const LISTING_RETRY = {
  retries: 5,
  firstDelayMs: PUSH_BACKOFF.firstMs,
  maxDelayMs: PUSH_BACKOFF.capMs,
} as const;

/** The wait before retry `retry` (0-based): the spec gives listings the push backoff. */
export function listingRetryDelay(retry: number, random: number): number {
  return pushBackoffMs(retry + 1, random);
}

/** 5xx and 429 answers are worth another try; every other status is final. */
function isTransientListingStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

export interface ListingRetryDeps {
  http: HttpClient;
  log: Logger;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

/**
 * Fetches one listing page, retrying transient failures (5xx, 429, transport faults) per
 * `LISTING_RETRY`. Resolves with the last answer, whatever its status, once it is final or the
 * retries are spent; rejects with the last transport error when no answer came.
 */
export async function fetchListingPage(request: HttpRequest, deps: ListingRetryDeps): Promise<HttpResponse> {
  for (let retry = 0; ; retry += 1) {
    let failure: string;
    try {
      const response = await deps.http.fetch(request);
      if (!isTransientListingStatus(response.status) || retry >= LISTING_RETRY.retries) return response;
      failure = `${displayUrl(request.url)}: HTTP ${response.status}`;
    } catch (error) {
      if (!(error instanceof HttpTransportError) || !error.transient || retry >= LISTING_RETRY.retries) {
        throw error;
      }
      failure = error.message;
    }
    const delay = listingRetryDelay(retry, deps.random());
    deps.log.warn(
      `${failure}; retry ${retry + 1}/${LISTING_RETRY.retries} in ${(delay / 1000).toFixed(1)} s`,
    );
    await deps.sleep(delay);
  }
}
