import { ExitCode } from "@pkg/common";
import type { LayerReuse } from "@pkg/package/push";
import type { LayerFile } from "../build/build-pair.js";
import type { VersionJob } from "../plan/jobs.js";

/**
 * `published`: pushed by this run; `retagged`: published by an earlier run, whose version's
 * exact and rolling tags this run wrote (nothing uploaded); `planned`: a dry run's work.
 */
export type PairStatus = "published" | "retagged" | "skipped" | "failed" | "planned";

export interface SyncPairResult {
  platform: string;
  status: PairStatus;
  /** Why a pair was skipped. */
  reason?: string;
  /** Tags that now hold this platform, the primary tag first. */
  tags_written: string[];
  /** What the push did with the package's blobs (bundle layer, config). */
  blobs: LayerReuse;
  /** Push attempts made. */
  attempts: number;
  /** Whether an earlier run's download or bundle was used. */
  reused_download: boolean;
  reused_bundle: boolean;
  error?: { exit_code: ExitCode; message: string };
}

export interface SyncVersionResult {
  version: string;
  /** The non-default variant whose tags these are. */
  variant?: string;
  /** The tag the version was pushed under; absent when nothing of it was pushed. */
  primary_tag?: string;
  /** Rolling tags the registry received for this version, as run-summary.json names them. */
  cascade_tags_written: string[];
  /**
   * run-summary.json's counter of shared (wheel) layers reused: archive and binary mirrors have
   * none, so the spec has them report all zero.
   */
  layer_reuse: LayerReuse;
  platforms: SyncPairResult[];
}

export interface SyncReport {
  name: string;
  target: string;
  dry_run: boolean;
  /** Oldest first, the order pushed. */
  versions: SyncVersionResult[];
  counts: Record<PairStatus, number>;
  /** The signal that stopped the run (`SIGINT`, `SIGTERM`); absent when it ran to the end. */
  interrupted?: string;
}

export const noReuse = (): LayerReuse => ({ mounted: 0, uploaded: 0, verified: 0 });

/** The counters of several pushes added up. */
const sumReuse = (counts: readonly LayerReuse[]): LayerReuse =>
  counts.reduce(
    (sum, c) => ({
      mounted: sum.mounted + c.mounted,
      uploaded: sum.uploaded + c.uploaded,
      verified: sum.verified + c.verified,
    }),
    noReuse(),
  );

/**
 * A version's `layer_reuse`: what its pushes did with shared wheel layers. Only an environment
 * package has any (a layer that holds a wheel); archive and binary mirrors report all zero.
 */
export const wheelLayerReuse = (layers: readonly LayerFile[], counts: readonly LayerReuse[]): LayerReuse =>
  layers.some((layer) => layer.wheel !== undefined) ? sumReuse(counts) : noReuse();

export const skippedPair = (platform: string, reason: string): SyncPairResult => ({
  platform,
  status: "skipped",
  reason,
  tags_written: [],
  blobs: noReuse(),
  attempts: 0,
  reused_download: false,
  reused_bundle: false,
});

export const failedPair = (
  platform: string,
  error: { exitCode: ExitCode; message: string },
): SyncPairResult => ({
  ...skippedPair(platform, ""),
  status: "failed",
  reason: undefined,
  error: { exit_code: error.exitCode, message: error.message },
});

/** Why a published pair of a version owing its tags is not pushed again. */
export const OWED_TAGS = "published; its version's exact and rolling tags are owed";

/** A version nothing was pushed for: the given pairs, then its refused and skipped ones. */
export function unpublishedVersion(job: VersionJob, pairs: readonly SyncPairResult[]): SyncVersionResult {
  return {
    version: job.version,
    ...(job.variant === undefined ? {} : { variant: job.variant }),
    cascade_tags_written: [],
    layer_reuse: noReuse(),
    platforms: [
      ...pairs,
      ...job.refused.map((r) => failedPair(r.platform, { exitCode: ExitCode.Failed, message: r.message })),
      ...job.skipped.map((s) => skippedPair(s.platform, s.reason)),
      ...(job.retag && !pairs.some((p) => p.status === "planned")
        ? job.carried.map((platform) => skippedPair(platform, OWED_TAGS))
        : []),
    ],
  };
}

export function countPairs(versions: readonly SyncVersionResult[]): Record<PairStatus, number> {
  const counts: Record<PairStatus, number> = { published: 0, retagged: 0, skipped: 0, failed: 0, planned: 0 };
  for (const v of versions) for (const p of v.platforms) counts[p.status]++;
  return counts;
}

/** The final table: one line per pair, then the counts. */
export function formatSyncReport(report: SyncReport): string {
  const table = [["version", "platform", "status", "detail"]];
  for (const v of report.versions) {
    for (const p of v.platforms) {
      const detail =
        p.status === "published" || p.status === "retagged"
          ? p.tags_written.join(" ")
          : p.status === "failed"
            ? (p.error?.message ?? "")
            : (p.reason ?? "");
      table.push([v.version, v.variant ? `${v.variant}:${p.platform}` : p.platform, p.status, detail]);
    }
  }
  const widths = [0, 1, 2].map((i) => Math.max(...table.map((row) => row[i]?.length ?? 0)));
  const lines =
    table.length === 1
      ? ["nothing to do"]
      : table.map((row) =>
          row
            .map((cell, i) => (i < 3 ? cell.padEnd(widths[i] ?? 0) : cell))
            .join("  ")
            .trimEnd(),
        );
  const { published, retagged, skipped, failed, planned } = report.counts;
  const parts = report.dry_run ? [`${planned} planned`] : [`${published} published`];
  if (retagged > 0) parts.push(`${retagged} retagged`);
  lines.push([...parts, `${skipped} skipped`, `${failed} failed`].join(", "));
  return lines.join("\n");
}

const label = (v: SyncVersionResult) => (v.variant ? `${v.variant}:${v.version}` : v.version);

/**
 * The one line an interrupted run ends with: what it published (or completed the tags of), and
 * which versions it left for the next run, whose downloads and bundles stay in the work directory.
 */
export function interruptionLine(report: SyncReport, workDir: string): string {
  const done = report.versions.filter((v) =>
    v.platforms.some((p) => p.status === "published" || p.status === "retagged"),
  );
  const left = report.versions.filter((v) =>
    v.platforms.some((p) => p.status === "skipped" && p.reason?.startsWith("not pushed: interrupted")),
  );
  const parts = [
    `interrupted by ${report.interrupted ?? "a signal"}`,
    done.length > 0 ? `published ${done.map(label).join(", ")}` : "nothing published",
    left.length > 0
      ? `not published: ${left.map(label).join(", ")} (what was downloaded and bundled stays in ${workDir} for the next run)`
      : "nothing left unpublished",
  ];
  return parts.join("; ");
}
