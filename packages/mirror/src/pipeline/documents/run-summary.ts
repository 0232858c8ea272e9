import type { LayerReuse } from "@pkg/package/push";
import type { AnnounceStatus } from "../announce.js";

/** `run-summary.json`: what a pipeline push did, read by notify and by the generated workflow. */
export const RUN_SUMMARY_SCHEMA_VERSION = 1;

export interface RunSummary {
  schema_version: typeof RUN_SUMMARY_SCHEMA_VERSION;
  /** The spec's `name`. */
  mirror: string;
  /** `registry/repository`. */
  target: string;
  /** The CI run (`$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID`, or the forge's); absent outside CI. */
  run_url?: string;
  /** The push job itself (`PKG_MIRROR_JOB_URL`); absent when unknown. */
  push_job_url?: string;
  /** The upstream project's page (forge releases sources); absent for other sources. */
  source_url?: string;
  /** Oldest first. */
  versions: RunVersion[];
  /** Absent when the spec has no `announce` block. */
  announce?: RunAnnounce;
  /** Some version is `failed` or `partial`, or the announce failed. */
  any_red: boolean;
  /** Some version pushed at least one platform. */
  any_new_green: boolean;
}

export type RunVersionStatus = "published" | "partial" | "failed" | "skipped_existing";

export interface RunVersion {
  /** The tag published (the plan's `version`). */
  version: string;
  status: RunVersionStatus;
  /** Platform keys pushed by this run. */
  platforms_pushed: string[];
  platforms_failed: PlatformFailure[];
  test_failures: TestFailure[];
  /** `severity: broken` excludes of this version. */
  platforms_excluded: Array<{ platform: string; reason?: string }>;
  /** What the registry received: the exact tag first, then the rolling tags, deduplicated. */
  cascade_tags_written: string[];
  layer_reuse: LayerReuse;
}

export type FailureReason =
  | "test_failed"
  | "missing_junit"
  | "missing_bundle"
  | "no_test_leg"
  | "refused"
  | "push_error";

export interface PlatformFailure {
  platform: string;
  reason: FailureReason;
  /** One line: what failed. */
  message: string;
  /** The CI job that ran the failing leg (the JUnit suite's `ci.job.url`). */
  job_url?: string;
}

export interface TestFailure {
  platform: string;
  /** Container id; `native` on a native leg. */
  container: string;
  /** The `tests[].name`, or `<junit>` when the JUnit file is missing or unreadable. */
  test: string;
  message: string;
}

export interface RunAnnounce {
  package: string;
  status: AnnounceStatus;
  tags?: string[];
  error?: string;
  request_url?: string;
}
