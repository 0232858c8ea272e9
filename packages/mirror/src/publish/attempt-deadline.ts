import { setTimeout as delay } from "node:timers/promises";
import { ExitCode, PkgError } from "@pkg/common";
import type { Target } from "@pkg/oci";

/** The spec's bound on one push attempt. */
export const PUSH_ATTEMPT_TIMEOUT_MS = 3_600_000;

/** Resolves when `ms` have passed; rejects when `signal` fires first (the attempt settled). */
export type Deadline = (ms: number, signal: AbortSignal) => Promise<void>;

export const realDeadline: Deadline = (ms, signal) => delay(ms, undefined, { signal });

/** `expiry`, composed with the signal a caller gave, if any. */
function withExpiry<O extends { signal?: AbortSignal }>(options: O | undefined, expiry: AbortSignal): O {
  const given = options?.signal;
  const signal = given === undefined ? expiry : AbortSignal.any([given, expiry]);
  return { ...options, signal } as O;
}

/**
 * A view of `target` that passes the attempt's expiry signal to every call (composed with any
 * signal the caller gave): once the attempt overruns its deadline, its request in flight is cut
 * and rejects with the deadline's exit 75, and nothing new is started while the next attempt runs.
 */
function deadlineView(target: Target, expiry: AbortSignal): Target {
  return {
    displayName: target.displayName,
    repository: target.repository,
    blobSize: (digest, options) => target.blobSize(digest, withExpiry(options, expiry)),
    pushBlob: (source, options) => target.pushBlob(source, withExpiry(options, expiry)),
    fetchBlob: (digest, expectedSize, options) =>
      target.fetchBlob(digest, expectedSize, withExpiry(options, expiry)),
    fetchManifest: (reference, options) => target.fetchManifest(reference, withExpiry(options, expiry)),
    pushManifest: (bytes, mediaType, tag, options) =>
      target.pushManifest(bytes, mediaType, tag, withExpiry(options, expiry)),
    listTags: (options) => target.listTags(withExpiry(options, expiry)),
    referrers: (digest, artifactType, options) =>
      target.referrers(digest, artifactType, withExpiry(options, expiry)),
    deleteManifest: (digest, options) => target.deleteManifest(digest, withExpiry(options, expiry)),
    untag: (tag, options) => target.untag(tag, withExpiry(options, expiry)),
  };
}

/**
 * Runs one push attempt against `target` within `timeoutMs`. An attempt that overruns fails with
 * exit 75 (retryable: the spec's worst case is every attempt running into the bound): the target
 * calls it has in flight are aborted with that error, and its later outcome is ignored.
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
  const attempt = run(deadlineView(target, expiry.signal));
  // once the deadline has passed, the abandoned attempt's own failure is nobody's concern
  attempt.catch(() => undefined);
  try {
    return await Promise.race([attempt, expired]);
  } finally {
    settled.abort();
  }
}
