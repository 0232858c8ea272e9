import { setTimeout as delay } from "node:timers/promises";
import { ExitCode, PkgError } from "@pkg/common";
import type { Target } from "@pkg/oci";

/** The spec's bound on one push attempt. */
export const PUSH_ATTEMPT_TIMEOUT_MS = 3_600_000;

/** Resolves when `ms` have passed; rejects when `signal` fires first (the attempt settled). */
export type Deadline = (ms: number, signal: AbortSignal) => Promise<void>;

export const realDeadline: Deadline = (ms, signal) => delay(ms, undefined, { signal });

/**
 * A view of `target` that refuses to start an operation once `signal` has fired. The push library
 * takes no AbortSignal, so an attempt that overran its deadline cannot be cut inside a request;
 * this keeps it from starting another upload or moving a tag while the next attempt runs.
 */
function guardedTarget(target: Target, signal: AbortSignal): Target {
  const guarded = async <R>(operation: () => Promise<R>): Promise<R> => {
    signal.throwIfAborted();
    return operation();
  };
  return {
    displayName: target.displayName,
    repository: target.repository,
    blobSize: (digest) => guarded(() => target.blobSize(digest)),
    pushBlob: (source, options) => guarded(() => target.pushBlob(source, options)),
    fetchBlob: (digest, expectedSize) => guarded(() => target.fetchBlob(digest, expectedSize)),
    fetchManifest: (reference) => guarded(() => target.fetchManifest(reference)),
    pushManifest: (bytes, mediaType, tag) => guarded(() => target.pushManifest(bytes, mediaType, tag)),
    listTags: () => guarded(() => target.listTags()),
    referrers: (digest, artifactType) => guarded(() => target.referrers(digest, artifactType)),
  };
}

/**
 * Runs one push attempt against `target` within `timeoutMs`. An attempt that overruns fails with
 * exit 75 (retryable: the spec's worst case is every attempt running into the bound) and is
 * abandoned: its later outcome is ignored.
 */
export async function withAttemptDeadline<T>(
  target: Target,
  timeoutMs: number,
  run: (target: Target) => Promise<T>,
  deadline: Deadline = realDeadline,
): Promise<T> {
  const expiry = new AbortController();
  const settled = new AbortController();
  const expired = deadline(timeoutMs, settled.signal).then(() => {
    const reason = new PkgError(
      ExitCode.Transient,
      `the push attempt ran into its ${timeoutMs / 1000} s time limit`,
    );
    expiry.abort(reason);
    throw reason;
  });
  // the deadline rejects when the attempt settles first; nobody waits for it then
  expired.catch(() => undefined);
  const attempt = run(guardedTarget(target, expiry.signal));
  // once the deadline has passed, the abandoned attempt's own failure is nobody's concern
  attempt.catch(() => undefined);
  try {
    return await Promise.race([attempt, expired]);
  } finally {
    settled.abort();
  }
}
