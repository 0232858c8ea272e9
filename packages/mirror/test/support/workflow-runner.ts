import { spawn } from "node:child_process";
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { parse } from "yaml";
import { condition, type ExpressionContext, interpolate, stringify, type Value } from "./gh-expression.js";

/**
 * Runs a generated GitHub-style workflow on this machine the way a runner would, job by job in
 * `needs` order: each job (each matrix entry) in a fresh copy of the repository, its `run:` steps
 * through `bash -eo pipefail` with the step's `env:` evaluated, `$GITHUB_OUTPUT` read back into step
 * and job outputs, `if:` conditions honoured, and the artefact actions emulated on a local store
 * (upload: the paths' contents under their common directory; download: by name, or by pattern
 * merged into one directory). Checkout and set-up actions and the toolchain install are no-ops: the
 * caller puts the built tools on PATH.
 */
export interface WorkflowRunOptions {
  workflow: string;
  /** The repository the jobs check out (copied per job). */
  repo: string;
  /** Job workspaces and the artefact store go here. */
  work: string;
  /** The runner's environment (PATH with the tools). */
  env: Record<string, string>;
  secrets?: Record<string, string>;
  vars?: Record<string, string>;
  github?: Record<string, Value>;
  inputs?: Record<string, Value>;
  /** Which matrix entries run on this machine (others are reported as not run). */
  runsHere?: (job: string, matrix: Record<string, Value>) => boolean;
}

export interface StepRun {
  name: string;
  outcome: "success" | "failure" | "skipped";
  code?: number;
  output?: string;
}

export interface JobRun {
  job: string;
  matrix: Record<string, Value>;
  result: "success" | "failure" | "skipped" | "not run here";
  steps: StepRun[];
  outputs: Record<string, string>;
}

interface WorkflowDoc {
  defaults?: { run?: { shell?: string } };
  jobs: Record<string, JobDoc>;
}

interface JobDoc {
  needs?: string | string[];
  if?: string;
  strategy?: { matrix?: Record<string, unknown> };
  outputs?: Record<string, string>;
  env?: Record<string, string>;
  steps: StepDoc[];
}

interface StepDoc {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  run?: string;
  shell?: string;
}

export async function runWorkflow(options: WorkflowRunOptions): Promise<JobRun[]> {
  const doc = parse(await readFile(options.workflow, "utf8")) as WorkflowDoc;
  const store = join(options.work, "artefacts");
  await mkdir(store, { recursive: true });
  const runs: JobRun[] = [];
  const results = new Map<string, { result: string; outputs: Record<string, string> }>();
  for (const name of jobOrder(doc.jobs)) {
    const job = doc.jobs[name] as JobDoc;
    const needs = typeof job.needs === "string" ? [job.needs] : (job.needs ?? []);
    const needsCtx: Record<string, Value> = {};
    for (const need of needs) {
      const r = results.get(need);
      needsCtx[need] = { result: r?.result ?? "skipped", outputs: r?.outputs ?? {} };
    }
    const base = {
      github: options.github ?? {},
      secrets: options.secrets ?? {},
      vars: options.vars ?? {},
      inputs: options.inputs ?? {},
      needs: needsCtx,
    };
    const needsFailed = needs.some((n) => results.get(n)?.result !== "success");
    const jobCtx: ExpressionContext = { contexts: { ...base, matrix: {}, steps: {} }, failed: needsFailed };
    if (!condition(job.if, jobCtx)) {
      runs.push({ job: name, matrix: {}, result: "skipped", steps: [], outputs: {} });
      results.set(name, { result: "skipped", outputs: {} });
      continue;
    }
    const entries = matrixEntries(job, jobCtx);
    const jobRuns: JobRun[] = [];
    for (const [i, matrix] of entries.entries()) {
      if (options.runsHere && Object.keys(matrix).length > 0 && !options.runsHere(name, matrix)) {
        jobRuns.push({ job: name, matrix, result: "not run here", steps: [], outputs: {} });
        continue;
      }
      const workspace = join(options.work, `${name}-${i}`);
      await rm(workspace, { recursive: true, force: true });
      await cp(options.repo, workspace, { recursive: true });
      jobRuns.push(await runJob(name, job, matrix, { ...options, doc, store, workspace, base }));
    }
    runs.push(...jobRuns);
    const ran = jobRuns.filter((r) => r.result !== "not run here");
    const result = ran.some((r) => r.result === "failure") ? "failure" : "success";
    // a matrix job's outputs are those of its last entry, as on the runner
    results.set(name, { result, outputs: ran.at(-1)?.outputs ?? {} });
  }
  return runs;
}

function jobOrder(jobs: Record<string, JobDoc>): string[] {
  const order: string[] = [];
  const visit = (name: string) => {
    if (order.includes(name)) return;
    const job = jobs[name];
    if (!job) throw new Error(`needs names a job the workflow does not have: ${name}`);
    for (const need of typeof job.needs === "string" ? [job.needs] : (job.needs ?? [])) visit(need);
    order.push(name);
  };
  for (const name of Object.keys(jobs)) visit(name);
  return order;
}

function matrixEntries(job: JobDoc, ctx: ExpressionContext): Array<Record<string, Value>> {
  const matrix = job.strategy?.matrix;
  if (matrix === undefined) return [{}];
  const evaluated = interpolate(matrix, ctx) as Record<string, Value>;
  const { include, ...axes } = evaluated;
  let entries: Array<Record<string, Value>> = [{}];
  for (const [key, values] of Object.entries(axes)) {
    if (!Array.isArray(values)) throw new Error(`matrix axis ${key} is not a list`);
    entries = entries.flatMap((entry) => values.map((value) => ({ ...entry, [key]: value })));
  }
  if (Array.isArray(include)) {
    entries = Object.keys(axes).length === 0 ? (include as Array<Record<string, Value>>) : entries;
  }
  return entries;
}

interface JobEnv extends WorkflowRunOptions {
  doc: WorkflowDoc;
  store: string;
  workspace: string;
  base: Record<string, Value>;
}

async function runJob(
  name: string,
  job: JobDoc,
  matrix: Record<string, Value>,
  env: JobEnv,
): Promise<JobRun> {
  const stepsCtx: Record<string, Value> = {};
  const steps: StepRun[] = [];
  let failed = false;
  const githubEnv: Record<string, string> = {};
  for (const [i, step] of job.steps.entries()) {
    const ctx: ExpressionContext = { contexts: { ...env.base, matrix, steps: stepsCtx }, failed };
    const label = step.name ?? step.uses ?? `step ${i}`;
    const record = (outcome: StepRun["outcome"], outputs: Record<string, string> = {}, extra = {}) => {
      steps.push({ name: label, outcome, ...extra });
      if (step.id) stepsCtx[step.id] = { outcome, conclusion: outcome, outputs };
      if (outcome === "failure") failed = true;
    };
    if (!condition(step.if, ctx)) {
      record("skipped");
      continue;
    }
    if (step.uses !== undefined) {
      const ok = await runAction(step, ctx, env);
      record(ok ? "success" : "failure");
      continue;
    }
    if (step.id === "toolchain" || step.run === undefined) {
      record("success");
      continue;
    }
    const stepEnv = interpolate({ ...job.env, ...step.env }, ctx) as Record<string, Value>;
    const result = await runScript(
      step.run,
      {
        ...env.env,
        ...githubEnv,
        ...Object.fromEntries(Object.entries(stepEnv).map(([k, v]) => [k, stringify(v)])),
      },
      env.workspace,
    );
    Object.assign(githubEnv, result.env);
    record(result.code === 0 ? "success" : "failure", result.outputs, {
      code: result.code,
      output: result.output,
    });
  }
  const outputs = job.outputs
    ? Object.fromEntries(
        Object.entries(
          interpolate(job.outputs, { contexts: { ...env.base, matrix, steps: stepsCtx }, failed }) as Record<
            string,
            Value
          >,
        ).map(([k, v]) => [k, stringify(v)]),
      )
    : {};
  return { job: name, matrix, result: failed ? "failure" : "success", steps, outputs };
}

async function runScript(
  script: string,
  env: Record<string, string>,
  workspace: string,
): Promise<{ code: number; output: string; outputs: Record<string, string>; env: Record<string, string> }> {
  const temp = join(workspace, "..", `.runner-${basename(workspace)}`);
  await mkdir(temp, { recursive: true });
  const outputFile = join(temp, "output");
  const envFile = join(temp, "env");
  const scriptFile = join(temp, "script.sh");
  await Promise.all([writeFile(outputFile, ""), writeFile(envFile, ""), writeFile(scriptFile, script)]);
  const { code, output } = await new Promise<{ code: number; output: string }>((done, fail) => {
    const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", scriptFile], {
      cwd: workspace,
      env: {
        ...env,
        GITHUB_OUTPUT: outputFile,
        GITHUB_ENV: envFile,
        GITHUB_WORKSPACE: workspace,
        RUNNER_TEMP: temp,
        CI: "true",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    child.on("error", fail);
    child.on("close", (status) => done({ code: status ?? -1, output: text }));
  });
  return {
    code,
    output,
    outputs: keyValues(await readFile(outputFile, "utf8")),
    env: keyValues(await readFile(envFile, "utf8")),
  };
}

function keyValues(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const eq = line.indexOf("=");
    if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

/** The actions the generated workflows use: checkout and set-up (no-ops here) and the artefact pair. */
async function runAction(step: StepDoc, ctx: ExpressionContext, env: JobEnv): Promise<boolean> {
  const action = (step.uses ?? "").split("@")[0];
  const inputs = interpolate(step.with ?? {}, ctx) as Record<string, Value>;
  switch (action) {
    case "actions/checkout":
    case "actions/setup-node":
      return true;
    case "actions/upload-artifact":
      return upload(inputs, env);
    case "actions/download-artifact":
      return download(inputs, env);
    default:
      throw new Error(`the runner does not know the action ${action}`);
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function upload(inputs: Record<string, Value>, env: JobEnv): Promise<boolean> {
  const name = String(inputs.name);
  const paths = String(inputs.path)
    .split("\n")
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map((p) => resolve(env.workspace, p));
  const present: string[] = [];
  for (const path of paths) if (await exists(path)) present.push(path);
  if (present.length === 0) return inputs["if-no-files-found"] !== "error";
  // the artefact's root: the directory itself for one directory, else the paths' common parent
  const roots = await Promise.all(
    present.map(async (p) => ((await stat(p)).isDirectory() && present.length === 1 ? p : dirname(p))),
  );
  const root = commonDir(roots);
  const into = join(env.store, name);
  if (await exists(into)) throw new Error(`artefact ${name} uploaded twice`);
  await mkdir(into, { recursive: true });
  for (const path of present) {
    const target = join(into, relative(root, path));
    await cp(path, target, { recursive: true });
  }
  return true;
}

async function download(inputs: Record<string, Value>, env: JobEnv): Promise<boolean> {
  const into = resolve(env.workspace, String(inputs.path ?? "."));
  await mkdir(into, { recursive: true });
  if (typeof inputs.name === "string") {
    const from = join(env.store, inputs.name);
    if (!(await exists(from))) return false;
    await cp(from, into, { recursive: true });
    return true;
  }
  const pattern = new RegExp(
    `^${String(inputs.pattern)
      .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")}$`,
  );
  for (const name of (await readdir(env.store)).sort()) {
    if (!pattern.test(name)) continue;
    const target = inputs["merge-multiple"] === true ? into : join(into, name);
    await cp(join(env.store, name), target, { recursive: true });
  }
  return true;
}

function commonDir(dirs: readonly string[]): string {
  const split = dirs.map((d) => d.split(sep));
  const first = split[0] ?? [];
  let length = first.length;
  for (const parts of split.slice(1)) {
    let i = 0;
    while (i < length && parts[i] === first[i]) i++;
    length = i;
  }
  return first.slice(0, length).join(sep) || sep;
}
