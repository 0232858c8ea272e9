import type { IncomingHttpHeaders } from "node:http";
import { ExitCode, PkgError } from "@pkg/common";
import {
  extensionOf,
  IndexFileError,
  type IndexFileReader,
  type ReadRequest,
  readFirstInOrder,
  verifyDigest,
} from "@pkg/index/read";
import {
  createHttpClient,
  drain,
  HttpBodyTooLargeError,
  HttpTransportError,
  isRetryableStatus,
  type RetryPolicy,
  readOpenBody,
  withRetries,
} from "@pkg/net";
import { redactUserinfo } from "../config/userinfo.js";
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
  /** CA certificates (PEM) trusted beside the system roots and the CA variables of the environment. */
  ca?: string | Uint8Array;
  /** Proxy and CA variables and the credential ladder are read here (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Bound of each silence: waiting for an answer, and between two chunks of its body. */
  timeoutMs?: number;
}

/** One answer: its status and headers, and the body of a 200 (empty for any other status). */
interface UrlResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Uint8Array;
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

const isRetryable = (error: unknown) =>
  (error instanceof HttpTransportError && error.transient) || error instanceof RetryableStatus;

/** The size refusal of an index file, as the catalog words it (exit 65, the file skipped or fatal). */
function sizeRefusal(where: string, error: HttpBodyTooLargeError): IndexFileError {
  return error.declared === undefined
    ? new IndexFileError(where, `more than the ${error.maxBytes} bytes allowed`)
    : new IndexFileError(where, `${error.declared} bytes, more than the ${error.maxBytes} allowed`);
}

/** Reads an index deployed over https (through the one HTTP client, redirects not followed):
 *  `config.json` and `c/index.json` revalidated against the cache with their ETag, every other
 *  file verified against its digest and cached by it. */
export function createUrlReader(
  baseUrl: string,
  options: UrlReaderOptions,
): IndexFileReader & { close(): Promise<void> } {
  const shown = redactUserinfo(baseUrl).replace(/\/+$/, "");
  const http = createHttpClient({
    env: options.env ?? process.env,
    userAgent: "pkg-catalog",
    ca: options.ca === undefined ? [] : [Buffer.from(options.ca).toString("utf8")],
  });
  const urlOf = (relPath: string) => `${baseUrl.replace(/\/+$/, "")}/${relPath}`;
  const describe = (relPath: string) => `${shown}/${relPath}`;

  /** One GET; a 200 body read (at most `maxBytes`), any other drained. */
  const getOnce = async (relPath: string, maxBytes: number, headers: Record<string, string>) => {
    const where = describe(relPath);
    const response = await http.open({
      url: urlOf(relPath),
      headers,
      redirect: "manual",
      timeoutMs: options.timeoutMs ?? 30_000,
    });
    if (isRetryableStatus(response.status)) {
      await drain(response.body);
      const retryAfter = response.headers["retry-after"];
      throw new RetryableStatus(`${where}: HTTP ${response.status}`, retryAfter);
    }
    const answer: UrlResponse = {
      status: response.status,
      headers: response.headers,
      body: new Uint8Array(0),
    };
    if (response.status !== 200) {
      await drain(response.body);
      return answer;
    }
    try {
      // an exactly sized array of its own: a Buffer may be a slice of a shared pool
      answer.body = new Uint8Array(await readOpenBody(response, maxBytes));
    } catch (error) {
      if (error instanceof HttpBodyTooLargeError) throw sizeRefusal(where, error);
      throw error;
    }
    return answer;
  };

  const get = (relPath: string, maxBytes: number, headers: Record<string, string>) =>
    withRetries(options.retry, () => getOnce(relPath, maxBytes, headers), {
      isRetryable,
      retryAfter: (failure) =>
        "error" in failure && failure.error instanceof RetryableStatus ? failure.error.retryAfter : undefined,
      ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
    }).catch((error: unknown) => {
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

  return { describe, read, readFirst, close: () => http.close() };
}
