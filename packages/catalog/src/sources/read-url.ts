import { type WalkedIndex, walkIndex } from "@pkg/index/read";
import { ConfigError } from "../config/errors.js";
import type { UrlSourceEntry } from "../config/types.js";
import { redactUserinfo } from "../config/userinfo.js";
import type { WalkHooks } from "./read-path.js";
import { defaultCacheDir, UrlCache } from "./url-cache.js";
import { CATALOG_RETRY, createUrlReader } from "./url-reader.js";

/** HTTP requests in flight to one server. */
const DEFAULT_REQUEST_CONCURRENCY = 16;

export interface UrlReadOptions {
  /** Persistent cache directory; default `$XDG_CACHE_HOME/pkg-catalog` else `~/.cache/pkg-catalog`. */
  cacheDir?: string;
  /** Requests in flight at once (default 16). */
  concurrency?: number;
  walk?: WalkHooks;
  /** CA certificates to trust beside the system roots and those the CA variables name
   *  (PKG_EXTRA_CA_CERTS, SSL_CERT_FILE, SSL_CERT_DIR, NODE_EXTRA_CA_CERTS): for tests. */
  ca?: string | Uint8Array;
  /** How a retry waits (tests pass one that does not). */
  sleep?: (ms: number) => Promise<void>;
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
      `${key}: ${JSON.stringify(redactUserinfo(entry.url))} is not an https URL`,
      key,
    );
  }
  const concurrency = options.concurrency ?? DEFAULT_REQUEST_CONCURRENCY;
  const reader = createUrlReader(entry.url, {
    cache: new UrlCache(options.cacheDir ?? defaultCacheDir()),
    retry: CATALOG_RETRY,
    ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
    ...(options.ca === undefined ? {} : { ca: options.ca }),
  });
  try {
    return await walkIndex(reader, { ...options.walk, source: `sources[${entry.index}]`, concurrency });
  } finally {
    await reader.close();
  }
}
