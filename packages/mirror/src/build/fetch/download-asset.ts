import { mkdir, rename, rm, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { ExitCode, type Logger, PkgError } from "@pkg/common";
import type { HttpClient } from "@pkg/net";
import { displayUrl, HttpTransportError } from "@pkg/net";
import type { UpstreamAsset } from "../../sources/types.js";
import { VerificationError } from "./errors.js";
import { fileDigests } from "./file-digest.js";
import { HashingFileSink } from "./hashing-file-sink.js";
import {
  type AppliedPolicy,
  algorithmsFor,
  type ChecksumsSidecar,
  checkDownload,
  planVerification,
  type VerificationPlan,
} from "./verify-policy.js";

/** Largest asset accepted unless the caller sets another bound. */
export const DEFAULT_MAX_ASSET_BYTES = 8 * 1024 ** 3;

/** The suffix of a download in progress; a file carrying it is never taken as complete. */
export const PARTIAL_SUFFIX = ".partial";

export interface DownloadDeps {
  http: HttpClient;
  /** The digest policy of the spec's source type (`digestPolicyFor`). */
  policy: AppliedPolicy;
  /** The version's `verify.checksums_file`, when the spec names one. */
  sidecar?: ChecksumsSidecar;
  log?: Logger;
  maxBytes?: number;
  /** Wait for the answer and longest silence within the body (default: the client's 30 s). */
  timeoutMs?: number;
  /** Cuts the download off: the body stops being read (its connection closes) and the partial file goes. */
  signal?: AbortSignal;
  /** Told the bytes received so far, and the length the answer declares (progress). */
  onBytes?: (received: number, total?: number) => void;
}

export interface DownloadedAsset {
  path: string;
  bytes: number;
  /** `sha256:<hex>` of the local bytes. */
  sha256: string;
  /** True when a complete earlier download was used and no request was sent. */
  reused: boolean;
}

/** Runs a local file operation, turning its failure into an exit-74 error naming the asset. */
async function local<T>(asset: UpstreamAsset, what: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new PkgError(ExitCode.IoError, `asset ${asset.name}: cannot ${what}: ${reason}`, { cause: error });
  }
}

async function regularFileSize(path: string): Promise<number | undefined> {
  const found = await stat(path).catch(() => undefined);
  return found?.isFile() ? found.size : undefined;
}

/**
 * A download left complete at `dest` by an earlier run, re-verified against today's plan; a
 * digest that no longer matches discards it (the caller downloads again). A digest `require`d
 * but undeclared fails as it would after a fresh download.
 */
async function reuse(
  asset: UpstreamAsset,
  dest: string,
  plan: VerificationPlan,
  log: Logger | undefined,
): Promise<DownloadedAsset | undefined> {
  const bytes = await regularFileSize(dest);
  if (bytes === undefined) return undefined;
  const digests = await local(asset, `read ${dest}`, () => fileDigests(dest, algorithmsFor(plan)));
  try {
    checkDownload(plan, digests);
  } catch (error) {
    if (!(error instanceof VerificationError) || error.expected === undefined) throw error;
    log?.warn(`${error.message}; discarding the earlier download and fetching it again`);
    await local(asset, `remove ${dest}`, () => rm(dest, { force: true }));
    return undefined;
  }
  return { path: dest, bytes, sha256: `sha256:${digests.get("sha256")}`, reused: true };
}

/** The failure of a download stopped by its signal (a run stopped by `--fail-fast`). */
export function cancelledDownload(asset: UpstreamAsset): PkgError {
  return new PkgError(ExitCode.Failed, `asset ${asset.name}: download cancelled`, { detail: "cancelled" });
}

export function throwIfCancelled(asset: UpstreamAsset, signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelledDownload(asset);
}

function downloadFailure(asset: UpstreamAsset, partial: string, error: unknown): unknown {
  if (error instanceof HttpTransportError) {
    return new PkgError(ExitCode.Unavailable, `asset ${asset.name}: download failed: ${error.message}`, {
      cause: error,
    });
  }
  if (error instanceof PkgError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new PkgError(ExitCode.IoError, `asset ${asset.name}: cannot write ${partial}: ${reason}`, {
    cause: error,
  });
}

/** Resolves once `sink` is destroyed and closed (its file handle released). */
function closed(sink: HashingFileSink): Promise<void> {
  if (sink.closed) return Promise.resolve();
  return new Promise((resolve) => {
    sink.once("close", () => resolve());
    sink.destroy();
  });
}

async function fetchTo(asset: UpstreamAsset, partial: string, plan: VerificationPlan, deps: DownloadDeps) {
  let sink: HashingFileSink | undefined;
  const { signal } = deps;
  // destroying the sink makes the client destroy the body, which closes its connection
  const cutOff = () => sink?.destroy(cancelledDownload(asset));
  signal?.addEventListener("abort", cutOff, { once: true });
  let result: Awaited<ReturnType<HttpClient["stream"]>>;
  try {
    result = await deps.http.stream(
      { url: asset.url, maxBytes: deps.maxBytes ?? DEFAULT_MAX_ASSET_BYTES, timeoutMs: deps.timeoutMs },
      (head) => {
        throwIfCancelled(asset, signal);
        if (head.status < 200 || head.status > 299) return undefined;
        const onBytes = deps.onBytes;
        const declared = Number(head.headers["content-length"]);
        const total = Number.isSafeInteger(declared) && declared >= 0 ? declared : undefined;
        onBytes?.(0, total);
        sink = new HashingFileSink(
          partial,
          algorithmsFor(plan),
          onBytes && ((received) => onBytes(received, total)),
        );
        return sink;
      },
    );
  } catch (error) {
    // a body that fails while the sink is still opening its file would otherwise let that open
    // land after the caller removed the partial file: wait until the sink has let the file go
    if (sink) await closed(sink);
    throw error;
  } finally {
    signal?.removeEventListener("abort", cutOff);
  }
  if (!sink) {
    throw new PkgError(
      ExitCode.Unavailable,
      `asset ${asset.name}: download from ${displayUrl(result.url)} answered HTTP ${result.status}`,
    );
  }
  return { bytes: result.bytes, digests: sink.digests() };
}

/**
 * Downloads `asset` to `dest`: streamed to `dest.partial`, verified against the local bytes
 * (declared digest per `policy`, then the checksums file), and renamed to `dest` only then, so
 * `dest` existing means a complete, verified download. A `.partial` left by a crash is discarded.
 * A complete `dest` from an earlier run is reused without a request once it verifies again.
 * Failures: `VerificationError` (exit 1), unreachable or non-2xx (69), local I/O (74).
 */
export async function downloadAsset(
  asset: UpstreamAsset,
  dest: string,
  deps: DownloadDeps,
): Promise<DownloadedAsset> {
  throwIfCancelled(asset, deps.signal);
  const plan = planVerification(asset, deps.policy, deps.sidecar);
  const earlier = await reuse(asset, dest, plan, deps.log);
  if (earlier) return earlier;
  const partial = dest + PARTIAL_SUFFIX;
  await local(asset, `create ${dirname(dest)}`, () => mkdir(dirname(dest), { recursive: true }));
  await local(asset, `remove ${partial}`, () => rm(partial, { force: true }));
  try {
    let fetched: Awaited<ReturnType<typeof fetchTo>>;
    try {
      fetched = await fetchTo(asset, partial, plan, deps);
    } catch (error) {
      throw downloadFailure(asset, partial, error);
    }
    checkDownload(plan, fetched.digests);
    await local(asset, `rename ${partial}`, () => rename(partial, dest));
    return {
      path: dest,
      bytes: fetched.bytes,
      sha256: `sha256:${fetched.digests.get("sha256")}`,
      reused: false,
    };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}
