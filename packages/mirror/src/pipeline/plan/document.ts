import type { RunJobs, VersionJob } from "../../plan/jobs.js";
import type { PairRow } from "../../plan/pairs.js";
import type { RunPlan } from "../../plan/plan-run.js";
import { PLAN_SCHEMA_VERSION, type PlanDocument, type PlanVersion } from "../documents/plan-document.js";
import type { DriftFinding } from "./drift-scan.js";
import { planLegs } from "./legs.js";

/** A plan: the document, and what the plain report says beside it. */
export interface PipelinePlan {
  document: PlanDocument;
  /**
   * Versions that are whole but owe their exact and rolling tags (their primary tags): no plan
   * entry (nothing to build), repaired by `pipeline cascade`.
   */
  owesTags: string[];
  /** Outstanding versions `new_per_run` leaves to later runs (upstream version text). */
  later: string[];
}

/**
 * `plan.json` from the one planner's decisions (`planRun`, then `planJobs`) and the drift scan:
 * one entry per (version, asset set) with pairs to build or refuse (`new`, or `backfill` when
 * earlier runs published some of its platforms), else with drifted metadata; oldest first, asset
 * sets in spec order, as `planJobs` orders them.
 */
export function buildPlanDocument(run: RunPlan, jobs: RunJobs, drift: readonly DriftFinding[]): PipelinePlan {
  const drifted = new Map(drift.map((finding) => [jobKey(finding), finding]));
  const rows = new Map(run.rows.map((row) => [row.version, row]));
  const versions: PlanVersion[] = [];
  const owesTags: string[] = [];
  const later: string[] = [];
  for (const job of jobs.versions) {
    const row = rows.get(job.version);
    const finding = drifted.get(jobKey(job));
    if (job.pairs.length > 0 || job.refused.length > 0) versions.push(workEntry(job, run, row));
    else if (finding) versions.push(driftEntry(finding));
    if (job.retag) owesTags.push(job.primary_tag ?? job.version);
    else if (job.pairs.length === 0 && row && outstanding(job, run, row)) later.push(job.version);
  }
  const { pkg_mirror_rev } = jobs;
  return {
    document: {
      schema_version: PLAN_SCHEMA_VERSION,
      target: jobs.target,
      ...(pkg_mirror_rev === undefined ? {} : { pkg_mirror_rev }),
      versions_resolved: jobs.versions_resolved,
      has_new: versions.some((v) => v.kind !== "metadata-drift"),
      has_drift: versions.some((v) => v.kind === "metadata-drift"),
      versions,
      legs: planLegs(run.spec),
    },
    owesTags,
    later,
  };
}

const jobKey = (job: { version: string; variant?: string }) => `${job.variant ?? ""}\0${job.version}`;

/** The set's columns of the run (a job's variant names its set). */
const columnsOf = (job: VersionJob, run: RunPlan) => run.columns.filter((c) => c.set.variant === job.variant);

function workEntry(job: VersionJob, run: RunPlan, row: PairRow | undefined): PlanVersion {
  if (job.primary_tag === undefined) throw new Error(`planJobs gave ${job.version} work but no primary tag`);
  const excluded = columnsOf(job, run).flatMap((column) => {
    const cell = row?.cells[column.id];
    if (cell?.state !== "excluded") return [];
    return [{ platform: column.platform, ...(cell.reason === undefined ? {} : { reason: cell.reason }) }];
  });
  return {
    version: job.primary_tag,
    source_version: job.version,
    ...(job.variant === undefined ? {} : { variant: job.variant }),
    kind: job.carried.length > 0 ? "backfill" : "new",
    platforms: job.pairs.map((pair) => pair.platform),
    assets: job.pairs.map(({ platform, asset }) => ({
      platform,
      asset_name: asset.name,
      url: asset.url,
      ...(asset.digest === undefined ? {} : { digest: asset.digest }),
    })),
    ...(job.refused.length === 0
      ? {}
      : { refused: job.refused.map(({ platform, message }) => ({ platform, message })) }),
    ...(excluded.length === 0 ? {} : { excluded }),
    ...(job.carried.length === 0 ? {} : { carried: [...job.carried] }),
    ...(job.own_tags === undefined || job.own_tags.length === 0 ? {} : { own_tags: [...job.own_tags] }),
  };
}

function driftEntry(finding: DriftFinding): PlanVersion {
  return {
    version: finding.tag,
    source_version: finding.version,
    ...(finding.variant === undefined ? {} : { variant: finding.variant }),
    kind: "metadata-drift",
    platforms: [],
    assets: [],
    drift: finding.platforms.map(({ platform, fields }) => ({ platform, fields: [...fields] })),
  };
}

/** Some pair of the job's set still wants building (new, missing or ambiguous) though the run took none. */
function outstanding(job: VersionJob, run: RunPlan, row: PairRow): boolean {
  return columnsOf(job, run).some((column) => {
    const state = row.cells[column.id]?.state;
    return state === "new" || state === "missing" || state === "ambiguous";
  });
}
