import { Agent } from "node:https";
import { ExitCode, PkgError } from "@pkg/common";
import { isRetryableStatus, type RetryPolicy, withRetries } from "@pkg/net";
import { withoutCredentials } from "./display-url.js";
import {
  extensionOf,
  type IndexFileReader,
  type ReadRequest,
  readFirstInOrder,
  verifyDigest,
} from "./file-reader.js";
import { httpsGet, TransportError } from "./https-get.js";
import type { UrlCache } from "./url-cache.js";

/** The catalog's configuration of the one retry policy: 3 attempts, waiting 500 ms then 2 s. */
export const CATALOG_RETRY: RetryPolicy = {
  retries: 2,
  firstDelayMs: 500,
  multiplier: 4,
  maxDelayMs: 30_000,
  jitter: { below: 0, above: 0 },
};

export interface UrlReaderOptions {
  cache: UrlCache;
  retry: RetryPolicy;
  /** How a retry waits (tests pass one that does not). */
  sleep?: (ms: number) => Promise<void>;
  /** Sockets kept open to the server. */
  concurrency: number;
  /** CA certificates trusted instead of the system roots (tests); otherwise the system roots and
   *  NODE_EXTRA_CA_CERTS. */
  ca?: string | Uint8Array;
  timeoutMs?: number;
}

/** A status worth another attempt: the server is overloaded or failing for now. */
class RetryableStatus extends Error {
  constructor(
    message: string,
    readonly retryAfter: string | undefined,
  ) {
    super(message);
  }
}

const isRetryable = (error: unknown) => error instanceof TransportError || error instanceof RetryableStatus;

/** Reads an index deployed over https: `config.json` and `c/index.json` revalidated against the
 *  cache with their ETag, every other file verified against its digest and cached by it. */
export function createUrlReader(
  baseUrl: string,
  options: UrlReaderOptions,
): IndexFileReader & { close(): void } {
  const shown = withoutCredentials(baseUrl).replace(/\/+$/, "");
  const agent = new Agent({
    keepAlive: true,
    maxSockets: options.concurrency,
    ...(options.ca === undefined ? {} : { ca: Buffer.from(options.ca).toString("utf8") }),
  });
  const urlOf = (relPath: string) => `${baseUrl.replace(/\/+$/, "")}/${relPath}`;
  const describe = (relPath: string) => `${shown}/${relPath}`;

  const get = (relPath: string, maxBytes: number, headers: Record<string, string>) =>
    withRetries(
      options.retry,
      async () => {
        const where = describe(relPath);
        let response: Awaited<ReturnType<typeof httpsGet>>;
        try {
          response = await httpsGet(urlOf(relPath), {
            agent,
            headers,
            maxBytes,
            timeoutMs: options.timeoutMs ?? 30_000,
            where,
          });
        } catch (error) {
          if (error instanceof TransportError) throw new TransportError(`${where}: ${error.message}`);
          throw error;
        }
        if (isRetryableStatus(response.status)) {
          throw new RetryableStatus(`${where}: HTTP ${response.status}`, response.headers["retry-after"]);
        }
        return response;
      },
      {
        isRetryable,
        retryAfter: (failure) =>
          "error" in failure && failure.error instanceof RetryableStatus
            ? failure.error.retryAfter
            : undefined,
        ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
      },
    ).catch((error: unknown) => {
      if (isRetryable(error)) {
        throw new PkgError(
          ExitCode.Unavailable,
          `${(error as Error).message} (after ${options.retry.retries + 1} attempts)`,
        );
      }
      throw error;
    });

  const read = async (relPath: string, request: ReadRequest): Promise<Uint8Array | undefined> => {
    const where = describe(relPath);
    const key = urlOf(relPath);
    const ext = extensionOf(relPath);
    if (request.digest !== undefined) {
      const hit = await options.cache.getObject(request.digest, ext);
      if (hit !== undefined) return hit;
    }
    const cached = request.digest === undefined ? await options.cache.getDocument(key) : undefined;
    const headers: Record<string, string> = { accept: "*/*" };
    if (cached !== undefined) headers["if-none-match"] = cached.etag;
    const response = await get(relPath, request.maxBytes, headers);
    const { status } = response;
    if (status === 304 && cached !== undefined) return cached.bytes;
    if (status === 404 || status === 410) return undefined;
    if (status >= 300 && status < 400) {
      const location = response.headers.location;
      const to = location === undefined ? "" : ` to ${location}`;
      throw new PkgError(
        ExitCode.Unavailable,
        `${where}: HTTP ${status} redirect${to} refused (redirects are not followed)`,
      );
    }
    if (status !== 200) throw new PkgError(ExitCode.Unavailable, `${where}: HTTP ${status}`);
    verifyDigest(where, response.body, request.digest);
    const etag = response.headers.etag;
    if (request.digest !== undefined) await options.cache.putObject(request.digest, ext, response.body);
    else if (etag !== undefined) await options.cache.putDocument(key, etag, response.body);
    return response.body;
  };

  /** Every name is looked up in the cache before any is requested: a cached `.png` logo needs no
   *  request for the `.svg` name tried first. */
  const readFirst: IndexFileReader["readFirst"] = async (relPaths, request) => {
    if (request.digest !== undefined) {
      for (const relPath of relPaths) {
        const hit = await options.cache.getObject(request.digest, extensionOf(relPath));
        if (hit !== undefined) return { relPath, bytes: hit };
      }
    }
    return readFirstInOrder(read, relPaths, request);
  };

  return { describe, read, readFirst, close: () => agent.destroy() };
}
