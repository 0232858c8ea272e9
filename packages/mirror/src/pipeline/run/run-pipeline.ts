import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { type Logger, writeAtomically } from "@pkg/common";
import type { HttpClient } from "@pkg/net";
import type { Target } from "@pkg/oci";
import { detectHostPlatform } from "@pkg/package";
import { removeTaskDirectory, taskDirectory } from "../../build/build-pair.js";
import type { RunnableSpec } from "../../plan/plan-run.js";
import type { RunSigner } from "../../publish/sign-published.js";
import type { LoadedSpec } from "../../spec/loader.js";
import type { RunSummary } from "../documents/run-summary.js";
import type { PipelinePlan } from "../plan/document.js";
import { planPipeline } from "../plan/plan-pipeline.js";
import { isEnvSpec, prepareEnvVersions } from "../prepare-step/prepare-env.js";
import { prepareVersions } from "../prepare-step/prepare-versions.js";
import { pushStep } from "../push-step/push-step.js";
import { runTestLeg } from "../test-leg/run-leg.js";
import { type HostLeg, hostLegs } from "./host-legs.js";

export interface RunPipelineOptions {
  loaded: LoadedSpec;
  spec: RunnableSpec;
  /** Holds plan.json, locks/, bundles/, junit/, run-summary.json and the builds in progress (work/). */
  workDir: string;
  /** A test's `script` resolves from here. */
  repoRoot: string;
  /** Where to publish (the spec's registry, or an OCI layout). */
  target: Target;
  /** Another repository beside `target`: where shared wheel layers go. */
  openRepository: (repository: string) => Target;
  env: NodeJS.ProcessEnv;
  http: HttpClient;
  log: Logger;
  signal: AbortSignal;
  now?: Date;
  /** Signs what is published (the spec has `sign`). */
  signer?: RunSigner;
}

export interface PipelineRun {
  plan: PipelinePlan;
  /** Every (leg, container) of the plan, run here or not and why. */
  legs: HostLeg[];
  summary: RunSummary;
  summaryPath: string;
}

/** The files one `pipeline run` writes, as the CI jobs name them. */
export function runFiles(workDir: string) {
  const dir = resolve(workDir);
  return {
    plan: join(dir, "plan.json"),
    locks: join(dir, "locks"),
    builds: join(dir, "work"),
    bundles: join(dir, "bundles"),
    junit: join(dir, "junit"),
    summary: join(dir, "run-summary.json"),
  };
}

/**
 * `pipeline run`: the CI pipeline on one machine, as a user debugs a spec before pushing it to CI.
 * Plans (plan.json), prepares every version (bundles/), runs the test legs this host can run
 * (native legs of its own platform) into junit/, then pushes with the same gating as CI: a
 * platform whose legs could not run here has no JUnit and stays red. A pushed pair's build
 * directory is removed; the rest stays for the next run to reuse.
 */
export async function runPipeline(options: RunPipelineOptions): Promise<PipelineRun> {
  const { log, spec } = options;
  const files = runFiles(options.workDir);
  const plan = await planPipeline(options.loaded, {
    env: options.env,
    log,
    http: options.http,
    target: options.target,
    python: { locksDir: files.locks, planDir: dirname(files.plan) },
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  await mkdir(resolve(options.workDir), { recursive: true });
  await writeAtomically(files.plan, "plan", (temp) =>
    writeFile(temp, `${JSON.stringify(plan.document, null, 2)}\n`),
  );
  // artefacts of an earlier run would be read as this one's
  await Promise.all([files.bundles, files.junit].map((dir) => rm(dir, { recursive: true, force: true })));

  const building = plan.document.versions.filter((v) => v.kind !== "metadata-drift");
  if (building.length > 0) {
    const step = {
      spec,
      specDir: options.loaded.specDir,
      workDir: files.builds,
      bundlesDir: files.bundles,
      targetName: options.target.displayName,
      http: options.http,
      log,
      signal: options.signal,
    };
    if (isEnvSpec(spec))
      await prepareEnvVersions(building, {
        ...step,
        repoRoot: options.repoRoot,
        env: options.env,
        planDir: dirname(files.plan),
      });
    else await prepareVersions(building, step);
  }

  const legs = hostLegs(plan.document, detectHostPlatform());
  for (const leg of legs) {
    if (!leg.runs) {
      log.info(`leg ${leg.leg} (${leg.container}): not run here: ${leg.why}; its platforms stay red`);
      continue;
    }
    if (building.length === 0 || options.signal.aborted) continue;
    await runTestLeg({
      plan: plan.document,
      leg: leg.leg,
      container: leg.container,
      bundlesDir: files.bundles,
      junitDir: files.junit,
      repoRoot: options.repoRoot,
      workspace: resolve(options.workDir),
      env: options.env,
      log,
      dryRun: false,
      print: (line) => log.info(line),
      signal: options.signal,
    });
  }

  const summary = await pushStep({
    spec,
    bundlesDir: files.bundles,
    junitDir: files.junit,
    summaryPath: files.summary,
    legs: plan.document.legs,
    plan: plan.document,
    target: options.target,
    openRepository: options.openRepository,
    env: options.env,
    http: options.http,
    log,
    signal: options.signal,
    ...(options.signer === undefined ? {} : { signer: options.signer }),
  });
  for (const row of summary.versions) {
    const entry = building.find((v) => v.version === row.version);
    for (const platform of row.platforms_pushed) {
      if (entry === undefined) continue;
      const pair = {
        version: entry.source_version,
        platform,
        ...(entry.variant === undefined ? {} : { variant: entry.variant }),
      };
      await removeTaskDirectory(taskDirectory(files.builds, spec.name, pair));
    }
  }
  return { plan, legs, summary, summaryPath: files.summary };
}
