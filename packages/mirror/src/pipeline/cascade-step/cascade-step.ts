import { ExitCode, type Logger, PkgError } from "@pkg/common";
import type { HttpClient } from "@pkg/net";
import type { Target } from "@pkg/oci";
import { type RepairReport, repairCascade } from "@pkg/package/cascade";
import type { RunnableSpec } from "../../plan/plan-run.js";
import { observeIndexes } from "../../publish/index-observer.js";
import { updatePublishedSummary } from "../../publish/published-summary.js";
import { DEFAULT_CASCADE } from "../../spec/cascade.js";
import { type AnnounceOutcome, runAnnounce } from "../announce.js";

export interface CascadeStepOptions {
  spec: RunnableSpec;
  target: Target;
  dryRun: boolean;
  env: NodeJS.ProcessEnv;
  http: HttpClient;
  log: Logger;
  /** Announce into this local index directory instead of the spec's index repository. */
  out?: string;
}

export interface CascadeStepReport {
  repair: RepairReport;
  /** Present when the spec has an announce block and the repair moved tags (never in a dry run). */
  announce?: AnnounceOutcome;
}

/**
 * `pipeline cascade`: `pkg package cascade repair` of the spec's target, in process (a dry run
 * writes nothing); after a real repair that moved tags, the published summary is updated and,
 * with an `announce` block, the moved tags are announced (a healthy run announces nothing). The
 * caller turns the report into the exit code: 1 a failed repair or announce, 65 findings left.
 */
export async function cascadeStep(options: CascadeStepOptions): Promise<CascadeStepReport> {
  const { spec, log } = options;
  if (!(spec.cascade ?? DEFAULT_CASCADE).enabled) {
    throw new PkgError(
      ExitCode.Usage,
      "the spec sets cascade: false: its repository publishes exact version tags only and has no rolling tags to repair",
    );
  }
  const observer = observeIndexes(options.target);
  const repair = await repairCascade(observer.target, { dryRun: options.dryRun, log });
  if (repair.dry_run || repair.moved_tags.length === 0) return { repair };
  await updatePublishedSummary(options.target, observer, log);
  const announce = await runAnnounce(spec, {
    tags: { kind: "tags", tags: repair.moved_tags },
    source: options.target,
    env: options.env,
    http: options.http,
    log,
    ...(options.out === undefined ? {} : { out: options.out }),
  });
  return announce === undefined ? { repair } : { repair, announce };
}
