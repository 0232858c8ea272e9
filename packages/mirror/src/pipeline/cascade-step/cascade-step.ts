import { ExitCode, type Logger, PkgError } from "@pkg/common";
import type { HttpClient } from "@pkg/net";
import type { Target } from "@pkg/oci";
import { type RepairReport, repairCascade } from "@pkg/package/cascade";
import { planRun, type RunnableSpec } from "../../plan/plan-run.js";
import { observeIndexes } from "../../publish/index-observer.js";
import { updatePublishedSummary, withdrawFromSummary } from "../../publish/published-summary.js";
import { DEFAULT_CASCADE } from "../../spec/cascade.js";
import type { LoadedSpec } from "../../spec/loader.js";
import { type AnnounceOutcome, runAnnounce } from "../announce.js";
import { incompleteVersions } from "./incomplete.js";

export interface CascadeStepOptions {
  /** The loaded spec: its window is planned to learn which versions are whole. */
  loaded: LoadedSpec;
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
  /** The repair; its check's `held_out` lists the versions of the window left out as not whole. */
  repair: RepairReport;
  /** Present when the spec has an announce block and the repair moved tags (never in a dry run). */
  announce?: AnnounceOutcome;
}

/**
 * `pipeline cascade`: `pkg package cascade repair` of the spec's target, in process (a dry run
 * writes nothing), after planning the spec's window (`planRun`: upstream listed once, the target
 * read) to learn which versions are not whole: those (`incompleteVersions`) are left out of the
 * fold, so the repair never gives them the rolling tags a push withheld. Versions outside the
 * window are judged by what is published, as the spec-less repair judges them. A source or
 * registry failure while planning fails the step before anything is written. After a real repair
 * that moved tags, the published summary is updated and, with an `announce` block, the moved tags
 * are announced (a healthy run announces nothing). The caller turns the report into the exit
 * code: 1 a failed repair or announce, 65 findings left.
 */
export async function cascadeStep(options: CascadeStepOptions): Promise<CascadeStepReport> {
  const { spec, log } = options;
  if (!(spec.cascade ?? DEFAULT_CASCADE).enabled) {
    throw new PkgError(
      ExitCode.Usage,
      "the spec sets cascade: false: its repository publishes exact version tags only and has no rolling tags to repair",
    );
  }
  const run = await planRun(options.loaded, {
    env: options.env,
    log,
    http: options.http,
    target: options.target,
    // a repair trusts the registry's indexes, never the published summary it may itself correct
    verifyPublished: true,
  });
  const observer = observeIndexes(options.target);
  const tags = new Set(await observer.target.listTags());
  const incomplete = incompleteVersions(run.rows, run.columns, tags);
  const repair = await repairCascade(observer.target, {
    dryRun: options.dryRun,
    incomplete,
    log,
    // the aliases about to move leave the published summary first (see withdrawFromSummary)
    beforeWrites: (moving) => withdrawFromSummary(options.target, moving, log),
  });
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
