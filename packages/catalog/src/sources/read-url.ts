import { type WalkedIndex, walkIndex } from "@pkg/index/read";
import { ConfigError } from "../config/errors.js";
import type { UrlSourceEntry } from "../config/types.js";
import { withoutCredentials } from "./display-url.js";
import { DEFAULT_RETRY, type RetryPolicy } from "./retry.js";
import { defaultCacheDir, UrlCache } from "./url-cache.js";
import { createUrlReader } from "./url-reader.js";

/** HTTP requests in flight to one server. */
const DEFAULT_REQUEST_CONCURRENCY = 16;

export interface UrlReadOptions {
  /** Persistent cache directory; default `$XDG_CACHE_HOME/pkg-catalog` else `~/.cache/pkg-catalog`. */
  cacheDir?: string;
  /** Requests in flight at once (default 16). */
  concurrency?: number;
  /** CA certificates to trust instead of the system roots: for tests only. Production relies on
   *  the system roots plus NODE_EXTRA_CA_CERTS. */
  ca?: string | Uint8Array;
  /** How a retry waits (tests pass one that does not). */
  sleep?: RetryPolicy["sleep"];
}

/** Reads an index deployed at an https URL. */
export async function readUrlSource(
  entry: UrlSourceEntry,
  options: UrlReadOptions = {},
): Promise<WalkedIndex> {
  const key = `sources[${entry.index}].url`;
  if (!URL.canParse(entry.url) || new URL(entry.url).protocol !== "https:") {
    throw new ConfigError(
      "INVALID_TYPE",
      `${key}: ${JSON.stringify(withoutCredentials(entry.url))} is not an https URL`,
      key,
    );
  }
  const concurrency = options.concurrency ?? DEFAULT_REQUEST_CONCURRENCY;
  const reader = createUrlReader(entry.url, {
    cache: new UrlCache(options.cacheDir ?? defaultCacheDir()),
    retry: { ...DEFAULT_RETRY, ...(options.sleep === undefined ? {} : { sleep: options.sleep }) },
    concurrency,
    ...(options.ca === undefined ? {} : { ca: options.ca }),
  });
  try {
    return await walkIndex(reader, { source: `sources[${entry.index}]`, concurrency });
  } finally {
    reader.close();
  }
}
