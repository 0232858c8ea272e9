import type { Logger } from "@pkg/common";
import { displayUrl, HttpTransportError } from "../http/errors.js";
import type { HttpClient, HttpRequest, HttpResponse } from "../http/types.js";

/** The spec's retry of one upstream-listing page, independent of `concurrency.max_retries`. */
export const LISTING_RETRY = {
  retries: 5,
  firstDelayMs: 1_000,
  maxDelayMs: 30_000,
  /** Each wait lands within plus or minus this fraction of its nominal value. */
  jitter: 0.1,
} as const;

/** The wait before retry `retry` (0-based): 1 s doubling, capped at 30 s, ±10% jitter; `random` in [0, 1). */
export function listingRetryDelay(retry: number, random: number): number {
  const nominal = Math.min(LISTING_RETRY.firstDelayMs * 2 ** retry, LISTING_RETRY.maxDelayMs);
  return Math.round(nominal * (1 - LISTING_RETRY.jitter + 2 * LISTING_RETRY.jitter * random));
}

/** 5xx and 429 answers are worth another try; every other status is final. */
export function isTransientListingStatus(status: number): boolean {
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
