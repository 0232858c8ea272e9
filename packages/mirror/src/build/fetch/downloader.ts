import type { Logger } from "@pkg/common";
import type { HttpClient } from "@pkg/net";
import pLimit from "p-limit";
import type { UpstreamAsset } from "../../sources/types.js";
import type { SourceType } from "../../spec/source.js";
import type { Verify } from "../../spec/verify.js";
import { type ChecksumsSource, createChecksumsSource } from "./checksums-source.js";
import { type DownloadedAsset, downloadAsset, throwIfCancelled } from "./download-asset.js";
import { digestPolicyFor } from "./verify-policy.js";

export interface DownloaderOptions {
  http: HttpClient;
  verify: Verify;
  sourceType: SourceType;
  /** `concurrency.max_downloads`. */
  maxDownloads: number;
  log?: Logger;
  maxBytes?: number;
  timeoutMs?: number;
}

export interface DownloadTask {
  version: string;
  asset: UpstreamAsset;
  /** Final path in the work directory; the download is written beside it first. */
  dest: string;
  /** Stops the download: a queued one never starts, a running one is cut off and its partial file removed. */
  signal?: AbortSignal;
  /** Told the bytes received so far, and the declared length (progress). */
  onBytes?: (received: number, total?: number) => void;
}

/** Downloads and verifies the assets of a run, at most `max_downloads` at once. */
export interface Downloader {
  download(task: DownloadTask): Promise<DownloadedAsset>;
  /** Downloads running now, and waiting for a slot (for progress lines). */
  readonly active: number;
  readonly pending: number;
}

/**
 * One per run: every download of every task goes through its pool. A slot covers the checksums
 * file fetch (once per run, shared by every pair) and the asset's download or re-verification, so
 * no more than `maxDownloads` transfers run together.
 */
export function createDownloader(options: DownloaderOptions): Downloader {
  const limit = pLimit(options.maxDownloads);
  const policy = digestPolicyFor(options.verify, options.sourceType);
  const checksums: ChecksumsSource | undefined =
    options.verify.checksums_file === undefined
      ? undefined
      : createChecksumsSource(options.http, options.verify.checksums_file);
  return {
    download: (task) =>
      limit(async () => {
        throwIfCancelled(task.asset, task.signal);
        const sidecar = await checksums?.sidecar();
        return downloadAsset(task.asset, task.dest, {
          http: options.http,
          policy,
          sidecar,
          log: options.log,
          maxBytes: options.maxBytes,
          timeoutMs: options.timeoutMs,
          signal: task.signal,
          onBytes: task.onBytes,
        });
      }),
    get active() {
      return limit.activeCount;
    },
    get pending() {
      return limit.pendingCount;
    },
  };
}
