import { planJobs } from "../../plan/jobs.js";
import { type PlanRunOptions, planRun, unavailableWhenTransient } from "../../plan/plan-run.js";
import type { LoadedSpec } from "../../spec/loader.js";
import { buildPlanDocument, type PipelinePlan } from "./document.js";
import { scanDrift } from "./drift-scan.js";

/** What a plan of a Python source (`pylock`, `pypi`) needs beyond the others. */
export interface PythonPlanOptions {
  /**
   * Where `pypi` sources' derived locks are written (`pylock.<package>-<version>.toml`), the
   * directory `--locks-dir` names (default `./locks`); each entry's `pylock` names its file.
   */
  locksDir: string;
}

export interface PipelinePlanOptions extends Omit<PlanRunOptions, "version" | "latest"> {
  /** The build time primary tags carry (default: when the plan starts). */
  now?: Date;
  python: PythonPlanOptions;
  /** Registry reads in flight at once while scanning for metadata drift. */
  driftConcurrency?: number;
}

/**
 * `pipeline plan`: the pairs still to build, exactly as `check` and `sync` decide them (`planRun`,
 * then `planJobs` at the plan's start), and the published versions whose metadata the spec has
 * since changed, as `plan.json`. Reads only: nothing is downloaded or written to the target.
 */
export async function planPipeline(loaded: LoadedSpec, options: PipelinePlanOptions): Promise<PipelinePlan> {
  const now = options.now ?? new Date();
  try {
    const run = await planRun(loaded, options);
    const jobs = planJobs(run, now);
    const drift = await scanDrift(run, jobs, {
      specDir: loaded.specDir,
      log: options.log,
      ...(options.driftConcurrency === undefined ? {} : { concurrency: options.driftConcurrency }),
    });
    return buildPlanDocument(run, jobs, drift);
  } catch (error) {
    // the drift scan's reads, like the planner's
    throw unavailableWhenTransient(error);
  }
}
