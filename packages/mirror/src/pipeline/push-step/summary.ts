import type { AnnounceOutcome } from "../announce.js";
import {
  RUN_SUMMARY_SCHEMA_VERSION,
  type RunAnnounce,
  type RunSummary,
  type RunVersion,
  type RunVersionStatus,
} from "../documents/run-summary.js";
import type { VersionDecision } from "./decide.js";
import type { PublishedDecision } from "./publish-decided.js";

function statusOf(failures: number, pushed: number, existing: number): RunVersionStatus {
  if (failures === 0) return pushed > 0 ? "published" : "skipped_existing";
  return pushed + existing > 0 ? "partial" : "failed";
}

/** One version's run-summary row: its decisions and what its push came to. */
export function versionRow(decision: VersionDecision, published: PublishedDecision): RunVersion {
  const reds = decision.pairs.flatMap((p) => (p.green ? [] : [p.failure]));
  const pushFailures = published.pushFailures.map(({ platform, message }) => ({
    platform,
    reason: "push_error" as const,
    message,
  }));
  const failed = [...reds, ...pushFailures];
  return {
    version: decision.entry.version,
    status: statusOf(failed.length, published.pushed.length, published.existing.length),
    platforms_pushed: published.pushed,
    platforms_failed: failed,
    test_failures: decision.pairs.flatMap((p) => p.testFailures),
    platforms_excluded: decision.entry.excluded ?? [],
    cascade_tags_written: published.tagsWritten,
    layer_reuse: published.layerReuse,
  };
}

/** The tags one announce carries: every tag written for a version that published something, deduplicated, in run order. */
export function announceTags(versions: readonly RunVersion[]): string[] {
  const tags = versions
    .filter((v) => v.status === "published" || v.status === "partial")
    .flatMap((v) => v.cascade_tags_written);
  return [...new Set(tags)];
}

export function runAnnounceRow(outcome: AnnounceOutcome): RunAnnounce {
  return {
    package: outcome.package,
    status: outcome.status,
    ...(outcome.tags === undefined ? {} : { tags: outcome.tags }),
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
    ...(outcome.request_url === undefined ? {} : { request_url: outcome.request_url }),
  };
}

export interface SummaryHead {
  mirror: string;
  target: string;
  run_url?: string;
  push_job_url?: string;
  source_url?: string;
}

export function runSummary(head: SummaryHead, versions: RunVersion[], announce?: RunAnnounce): RunSummary {
  const red = versions.some((v) => v.status === "failed" || v.status === "partial");
  return {
    schema_version: RUN_SUMMARY_SCHEMA_VERSION,
    ...head,
    versions,
    ...(announce === undefined ? {} : { announce }),
    any_red: red || announce?.status === "failed",
    any_new_green: versions.some((v) => v.platforms_pushed.length > 0),
  };
}

/**
 * Where the run and the push job are seen, from the CI's own variables: GitHub-style
 * (`GITHUB_SERVER_URL`, `GITHUB_REPOSITORY`, `GITHUB_RUN_ID`) or GitLab-style (`CI_PIPELINE_URL`,
 * `CI_JOB_URL`); `PKG_MIRROR_JOB_URL` names the push job when the workflow knows it.
 */
export function ciLinks(env: NodeJS.ProcessEnv): Pick<SummaryHead, "run_url" | "push_job_url"> {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: run } = env;
  const runUrl =
    server && repo && run ? `${server}/${repo}/actions/runs/${run}` : env.CI_PIPELINE_URL || undefined;
  const jobUrl = env.PKG_MIRROR_JOB_URL || env.CI_JOB_URL || undefined;
  return { ...(runUrl ? { run_url: runUrl } : {}), ...(jobUrl ? { push_job_url: jobUrl } : {}) };
}
