import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type CliResult,
  type RunningRegistry,
  runCli,
  startRegistry,
  type TempDir,
  type TestServer,
  tempDir,
} from "@pkg/testkit";
import { expect } from "vitest";
import { stringify } from "yaml";
import type { PlanDocument } from "../../src/pipeline/documents/plan-document.js";
import type { RunSummary } from "../../src/pipeline/documents/run-summary.js";
import { type ForgeOptions, startForge } from "./forge.js";
import { type SampleKind, sampleUpstream } from "./sample-upstream.js";
import { mirrorBin } from "./sync-run.js";

/** A workspace (a git root with the sample metadata), a registry and a forge serving the sample releases. */
export interface PipelineEnv {
  work: TempDir;
  registry: RunningRegistry;
  forge: TestServer;
  stop(): Promise<void>;
}

export async function startPipelineEnv(
  prefix: string,
  layout: ReadonlyArray<{ version: string; assets: Record<string, SampleKind> }>,
): Promise<PipelineEnv> {
  const work = await tempDir(prefix);
  await mkdir(join(work.path, ".git"));
  await writeFile(
    join(work.path, "hello.json"),
    JSON.stringify({
      type: "bundle",
      version: 1,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the metadata's own placeholder, not a template
      env: [{ key: "PATH", type: "path", value: "${installPath}", required: true }],
    }),
  );
  const registry = await startRegistry();
  const options: ForgeOptions = { repo: "acme/hello", releases: [], files: new Map() };
  const forge = await startForge(options);
  const upstream = await sampleUpstream(join(work.path, "scratch"), forge.url, layout);
  options.releases.push(...upstream.releases);
  for (const [name, bytes] of upstream.files) options.files?.set(name, bytes);
  return {
    work,
    registry,
    forge,
    stop: async () => {
      await forge.stop();
      await registry.stop();
      await work.remove();
    },
  };
}

/** The sample tool's spec: linux/amd64 (tar.gz) and linux/arm64 (binary), native legs, `extra` keys merged in. */
export function pipelineSpec(
  registryHost: string,
  repository: string,
  extra: Record<string, unknown> = {},
): string {
  return stringify({
    name: "hello",
    target: { registry: registryHost, repository },
    source: { type: "forgeone_release", owner: "acme", repo: "hello" },
    assets: {
      "linux/amd64": ["^hello-.*-linux-amd64\\.tar\\.gz$"],
      "linux/arm64": ["^hello-.*-linux-arm64$"],
    },
    asset_type: {
      default: { type: "archive", strip_components: 1 },
      platforms: { "linux/arm64": { type: "binary", name: "hello" } },
    },
    metadata: { default: "hello.json" },
    tests: [{ name: "greets", command: "hello" }],
    platforms: {
      "linux/amd64": { runner: "ubuntu-24.04" },
      "linux/arm64": { runner: "ubuntu-24.04-arm" },
    },
    ...extra,
  });
}

/** `pkg-mirror package pipeline ARGS` in the workspace, upstream on the loopback forge. */
export function pipelineCli(
  env: PipelineEnv,
  args: string[],
  vars: Record<string, string> = {},
): Promise<CliResult> {
  return runCli(mirrorBin, ["package", "pipeline", ...args], {
    cwd: env.work.path,
    env: { PKG_FORGEONE_API_URL: env.forge.url, ...vars },
  });
}

export async function pipelineOk(env: PipelineEnv, args: string[]): Promise<CliResult> {
  const result = await pipelineCli(env, args);
  expect(result.code, `${args.join(" ")}\n${result.stderr}`).toBe(0);
  return result;
}

/** The jobs of one CI run up to the test legs, files under `dir`; returns the plan and each leg's exit code. */
export async function planPrepareTest(env: PipelineEnv, dir: string, spec = "hello.yml") {
  const at = (name: string) => join(dir, name);
  await pipelineOk(env, ["plan", "--spec", spec, "-o", at("plan.json")]);
  const plan = JSON.parse(await readFile(join(env.work.path, dir, "plan.json"), "utf8")) as PlanDocument;
  for (const v of plan.versions)
    await pipelineOk(env, [
      "prepare",
      "--spec",
      spec,
      "--plan",
      at("plan.json"),
      "--version",
      v.version,
      "--bundles-dir",
      at("bundles"),
    ]);
  const legs: Record<string, number> = {};
  for (const leg of Object.keys(plan.legs)) {
    const args = [
      "test",
      "--plan",
      at("plan.json"),
      "--leg",
      leg,
      "--bundles-dir",
      at("bundles"),
      "--junit-dir",
      at("junit"),
    ];
    legs[leg] = (await pipelineCli(env, args)).code;
  }
  return { plan, legs };
}

/** `pipeline push` of the files under `dir`; returns its result and the summary it wrote. */
export async function pushRun(env: PipelineEnv, dir: string, extra: string[] = [], spec = "hello.yml") {
  const at = (name: string) => join(dir, name);
  const push = await pipelineCli(env, [
    "push",
    "--spec",
    spec,
    "--bundles-dir",
    at("bundles"),
    "--junit-dir",
    at("junit"),
    "--write-summary",
    at("run-summary.json"),
    ...extra,
  ]);
  const text = await readFile(join(env.work.path, dir, "run-summary.json"), "utf8").catch(() => "null");
  return { push, summary: JSON.parse(text) as RunSummary };
}
