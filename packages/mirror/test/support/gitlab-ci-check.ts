import { parseDocument } from "yaml";

/**
 * What makes a GitLab-style pipeline file runnable, checked without the forge: it is valid YAML
 * (a mapping); every job's stage is declared; `extends`, `needs`, `dependencies` and trigger
 * includes name jobs that exist (a `needs: pipeline:` entry naming a job of the parent file);
 * `dependencies` point at earlier stages; `rules`, `when`, `tags` and `artifacts` have their
 * shapes; and every file a job's pipeline command reads (`--plan`, `--bundles-dir`,
 * `--junit-dir` of push, `--run-summary`) is among the artefacts of a job it takes artefacts from.
 * Returns the problems found, empty when none.
 */
const KEYWORDS = new Set([
  "workflow",
  "stages",
  "variables",
  "default",
  "include",
  "image",
  "services",
  "before_script",
  "after_script",
  "cache",
]);
const WHEN = new Set(["on_success", "on_failure", "always", "never", "manual", "delayed"]);

type Job = Record<string, unknown>;

export interface GitlabFile {
  jobs: Map<string, Job>;
  stages: string[];
  problems: string[];
}

export function readGitlabFile(text: string, label: string): GitlabFile {
  const problems: string[] = [];
  const doc = parseDocument(text);
  for (const error of doc.errors) problems.push(`${label}: YAML: ${error.message}`);
  const root = doc.toJS() as Record<string, unknown> | null;
  if (root === null || typeof root !== "object" || Array.isArray(root)) {
    return { jobs: new Map(), stages: [], problems: [...problems, `${label}: not a mapping`] };
  }
  const stages = Array.isArray(root.stages) ? (root.stages as string[]) : ["build", "test", "deploy"];
  const jobs = new Map<string, Job>();
  for (const [key, value] of Object.entries(root)) {
    if (KEYWORDS.has(key)) continue;
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      problems.push(`${label}: ${key} is not a job mapping`);
      continue;
    }
    jobs.set(key, value as Job);
  }
  return { jobs, stages, problems };
}

export function gitlabProblems(text: string, label: string, parent?: GitlabFile): string[] {
  const file = readGitlabFile(text, label);
  const { jobs, stages, problems } = file;
  const visible = [...jobs].filter(([name]) => !name.startsWith("."));
  if (visible.length === 0) problems.push(`${label}: no job`);
  const merged = (job: Job): Job => {
    const base = typeof job.extends === "string" ? jobs.get(job.extends) : undefined;
    return base ? { ...base, ...job } : job;
  };
  const stageOf = (job: Job) => (typeof job.stage === "string" ? job.stage : "test");
  for (const [name, raw] of visible) {
    const where = `${label}: job ${name}`;
    if (typeof raw.extends === "string" && !jobs.has(raw.extends))
      problems.push(`${where}: extends ${raw.extends}, which does not exist`);
    const job = merged(raw);
    const stage = stageOf(job);
    if (!stages.includes(stage)) problems.push(`${where}: stage ${stage} is not declared`);
    if (job.trigger === undefined && !Array.isArray(job.script)) problems.push(`${where}: no script`);
    if (job.when !== undefined && !WHEN.has(String(job.when))) problems.push(`${where}: when ${job.when}`);
    if (job.tags !== undefined && !(Array.isArray(job.tags) && job.tags.every((t) => typeof t === "string")))
      problems.push(`${where}: tags is not a list of strings`);
    for (const rule of (job.rules as Job[] | undefined) ?? []) {
      if (rule.if !== undefined && typeof rule.if !== "string")
        problems.push(`${where}: a rule's if is not a string`);
      if (rule.when !== undefined && !WHEN.has(String(rule.when)))
        problems.push(`${where}: rule when ${rule.when}`);
    }
    const artifacts = job.artifacts as Job | undefined;
    if (artifacts !== undefined && !(Array.isArray(artifacts.paths) && artifacts.paths.length > 0))
      problems.push(`${where}: artifacts without paths`);

    // the jobs whose artefacts this job receives
    const sources: Array<{ file: GitlabFile; job: string }> = [];
    const needs = job.needs as Array<string | Job> | undefined;
    for (const need of needs ?? []) {
      if (typeof need === "string") {
        if (!jobs.has(need)) problems.push(`${where}: needs ${need}, which does not exist`);
        else sources.push({ file, job: need });
      } else if (typeof need.pipeline === "string") {
        const target = String(need.job);
        if (!parent?.jobs.has(target))
          problems.push(`${where}: needs ${target} of the parent pipeline, which it does not have`);
        else sources.push({ file: parent, job: target });
      } else if (!jobs.has(String(need.job)))
        problems.push(`${where}: needs ${String(need.job)}, which does not exist`);
      else sources.push({ file, job: String(need.job) });
    }
    const dependencies = job.dependencies as string[] | undefined;
    for (const dep of dependencies ?? []) {
      const other = jobs.get(dep);
      if (!other) problems.push(`${where}: depends on ${dep}, which does not exist`);
      else if (stages.indexOf(stageOf(merged(other))) >= stages.indexOf(stage))
        problems.push(`${where}: depends on ${dep} of a later or the same stage`);
    }
    if (needs === undefined) {
      const earlier = visible
        .filter(([other, j]) => stages.indexOf(stageOf(merged(j))) < stages.indexOf(stage) && other !== name)
        .map(([other]) => other);
      for (const other of dependencies ?? earlier) if (jobs.has(other)) sources.push({ file, job: other });
    }
    for (const include of ((job.trigger as Job | undefined)?.include as Job[] | undefined) ?? []) {
      const producer = jobs.get(String(include.job));
      if (!producer) problems.push(`${where}: triggers an artefact of ${include.job}, which does not exist`);
      else if (!artefactPaths(merged(producer)).includes(String(include.artifact)))
        problems.push(`${where}: ${include.job} has no artefact ${include.artifact}`);
    }
    const reads = readsFiles(job);
    const available = new Set(sources.flatMap((s) => artefactPaths(s.file.jobs.get(s.job) ?? {})));
    for (const path of reads) {
      if (!available.has(path))
        problems.push(`${where}: reads ${path}, which no job it takes artefacts from produces`);
    }
  }
  return problems;
}

function artefactPaths(job: Job): string[] {
  const paths = (job.artifacts as Job | undefined)?.paths;
  return Array.isArray(paths) ? paths.map((p) => String(p).replace(/\/$/, "")) : [];
}

/** Files the job's pipeline commands read from earlier jobs. */
function readsFiles(job: Job): string[] {
  const script = ((job.script as string[] | undefined) ?? []).join("\n");
  const out = new Set<string>();
  const lines = script.split("\n").filter((l) => l.includes("pkg-mirror package pipeline"));
  for (const line of lines) {
    const verb = /pkg-mirror package pipeline (\S+)/.exec(line)?.[1];
    if (verb === "plan" || verb === "generate") continue;
    const plan = / --plan ([^\s;]+)/.exec(line)?.[1];
    if (plan) out.add(plan);
    const bundles = / --bundles-dir ([^\s;]+)/.exec(line)?.[1];
    if (bundles && verb !== "prepare") out.add(bundles);
    const junit = / --junit-dir ([^\s;]+)/.exec(line)?.[1];
    if (junit && verb === "push") out.add(junit);
    const summary = / --run-summary ([^\s;]+)/.exec(line)?.[1];
    if (summary) out.add(summary);
  }
  return [...out];
}
