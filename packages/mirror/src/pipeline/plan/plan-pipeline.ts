import { relative, resolve, sep } from "node:path";
import { ExitCode, PkgError } from "@pkg/common";
import { planJobs } from "../../plan/jobs.js";
import {
  type PlanRunOptions,
  planRun,
  type RunnableSpec,
  unavailableWhenTransient,
} from "../../plan/plan-run.js";
import type { LoadedSpec } from "../../spec/loader.js";
import type { PlanVersion } from "../documents/plan-document.js";
import { lockDeriver } from "./derive-lock.js";
import { buildPlanDocument, type PipelinePlan } from "./document.js";
import { scanDrift } from "./drift-scan.js";

/** What a plan of a Python source (`pylock`, `pypi`) needs beyond the others. */
export interface PythonPlanOptions {
  /**
   * Where `pypi` sources' derived locks are written (`pylock.<package>-<version>.toml`), the
   * directory `--locks-dir` names (default `./locks`), relative to the working directory.
   */
  locksDir: string;
  /**
   * The directory each entry's `pylock` path is relative to: the plan file's (`-o`), else the
   * working directory (the default).
   */
  planDir?: string;
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
 * since changed, as `plan.json`. Reads the target only; for a `pypi` source it derives each
 * planned version's lock with uv into the locks directory, the entry's `pylock` naming it.
 */
export async function planPipeline(loaded: LoadedSpec, options: PipelinePlanOptions): Promise<PipelinePlan> {
  const now = options.now ?? new Date();
  let plan: PipelinePlan;
  try {
    const run = await planRun(loaded, options);
    const jobs = planJobs(run, now);
    const drift = await scanDrift(run, jobs, {
      specDir: loaded.specDir,
      log: options.log,
      ...(options.driftConcurrency === undefined ? {} : { concurrency: options.driftConcurrency }),
    });
    plan = buildPlanDocument(run, jobs, drift);
  } catch (error) {
    // the drift scan's reads, like the planner's
    throw unavailableWhenTransient(error);
  }
  const spec = loaded.spec as RunnableSpec;
  if (spec.source.type !== "pypi") return plan;
  const versions = await withDerivedLocks(spec, plan.document.versions, { ...options, now });
  return { ...plan, document: { ...plan.document, versions } };
}

/** The entries with work of a `pypi` source, each given its derived lock (in order, one resolver
 *  at a time); other sources' entries as they are. */
export async function withDerivedLocks(
  spec: RunnableSpec,
  entries: readonly PlanVersion[],
  options: Pick<PipelinePlanOptions, "env" | "log" | "python"> & { now: Date },
): Promise<PlanVersion[]> {
  const { source, python } = spec;
  if (source.type !== "pypi") return [...entries];
  if (python === undefined) throw new PkgError(ExitCode.Data, "a pypi source needs python");
  const work = entries.filter((entry) => entry.kind !== "metadata-drift");
  if (work.length === 0) return [...entries];
  const deriver = await lockDeriver(source, python, spec.name, {
    env: options.env,
    log: options.log,
    locksDir: options.python.locksDir,
    now: options.now,
  });
  const planDir = resolve(options.python.planDir ?? ".");
  const out: PlanVersion[] = [];
  for (const entry of entries) {
    if (entry.kind === "metadata-drift") {
      out.push(entry);
      continue;
    }
    const file = await deriver.derive(entry.source_version);
    out.push({ ...entry, pylock: relative(planDir, file).split(sep).join("/") });
  }
  return out;
}
