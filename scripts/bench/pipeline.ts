// `npm run bench -- pipeline`: the two pipeline steps the issue bounds. `pipeline plan` of 2,000
// releases x 6 platforms against 1,000 published versions (the loopback forge and registry of the
// check bench), as a whole process with its requests counted; and `pipeline push`'s gating of 200
// JUnit files (100 pairs, two containers each), the step that decides every pair before a push.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { tempDir } from "@pkg/testkit";
import { junitFileName } from "../../packages/mirror/src/pipeline/documents/artifacts.js";
import type { PlanContainer, PlanLeg } from "../../packages/mirror/src/pipeline/documents/plan-document.js";
import { judgePair } from "../../packages/mirror/src/pipeline/gating/index.js";
import { checkFixtureShape, withForgeFixture } from "./check.js";
import { median, repoRoot, timedRun } from "./measure.js";

const mirrorBin = join(repoRoot, "packages/mirror/bin/pkg-mirror.js");

/** The goals: plan under 3 s within pages + 5 requests; gating of 200 JUnit files under 1 s. */
export const pipelineGoal = { planSeconds: 3, planExtraRequests: 5, gatingSeconds: 1 };

export interface PipelineBenchResult {
  plan: {
    seconds: number[];
    pages: number;
    forgeRequests: number;
    tagListRequests: number;
    otherRegistryRequests: number;
    extraRequests: number;
    versions: number;
  };
  gating: { files: number; pairs: number; tests: number; seconds: number[]; green: number };
  ok: boolean;
}

async function benchPlan(rounds: number): Promise<PipelineBenchResult["plan"]> {
  return withForgeFixture(async ({ pages, specPath, forge, proxy }) => {
    const seconds: number[] = [];
    let counts = { forge: 0, tagList: 0, other: 0, versions: 0 };
    for (let round = 0; round < rounds; round++) {
      const forgeMark = forge.requests.length;
      const registryMark = proxy.requests.length;
      const run = await timedRun(
        process.execPath,
        [mirrorBin, "package", "pipeline", "plan", "--spec", specPath, "--format", "json"],
        { env: { PKG_FORGEONE_API_URL: forge.url } },
      );
      seconds.push(run.seconds);
      const paths = proxy.requests.slice(registryMark).map((r) => r.url);
      const tagList = paths.filter((p) => p.includes("/tags/list")).length;
      const plan = JSON.parse(run.stdout) as { versions: unknown[] };
      counts = {
        forge: forge.requests.length - forgeMark,
        tagList,
        other: paths.length - tagList,
        versions: plan.versions.length,
      };
    }
    // the goal bounds requests beyond the listing pages (and the tag-list pages, which are pages too)
    const extraRequests = counts.forge - pages + counts.other;
    return {
      seconds,
      pages,
      forgeRequests: counts.forge,
      tagListRequests: counts.tagList,
      otherRegistryRequests: counts.other,
      extraRequests,
      versions: counts.versions,
    };
  });
}

const TESTS = Array.from({ length: 20 }, (_, i) => ({ name: `test-${i}`, command: `tool check ${i}` }));
const CONTAINERS: PlanContainer[] = [
  { id: "alpine_3.20", image: "alpine:3.20", shell: "sh", libc: "musl" },
  { id: "ubuntu_24.04", image: "ubuntu:24.04", shell: "bash", libc: "glibc" },
];
const legOf = (key: string, slug: string): PlanLeg => ({
  runner: ["ubuntu-latest"],
  platform_slug: slug,
  container_platform: key,
  containers: CONTAINERS,
  tests: TESTS,
  prefix: [],
});
const LEGS: Record<string, PlanLeg> = {
  "linux/amd64": legOf("linux/amd64", "linux-amd64"),
  "linux/arm64": legOf("linux/arm64", "linux-arm64"),
};

function junitXml(platform: string): string {
  const cases = TESTS.map(
    (t) =>
      `    <testcase name="${t.name}" classname="tool" time="0.012"><system-out>ok</system-out></testcase>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites tests="${TESTS.length}" failures="0" errors="0">`,
    `  <testsuite name="tool" tests="${TESTS.length}" failures="0" errors="0" skipped="0">`,
    `    <properties><property name="pkg.platform" value="${platform}"/></properties>`,
    ...cases,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}

async function benchGating(rounds: number): Promise<PipelineBenchResult["gating"]> {
  const dir = await tempDir("bench-gating-");
  try {
    const junitDir = join(dir.path, "junit");
    await mkdir(junitDir);
    const pairs: Array<{ tag: string; platform: string }> = [];
    for (let v = 0; v < 50; v++) {
      const tag = `1.${v}.0_20250101120000`;
      for (const [platform, leg] of Object.entries(LEGS)) {
        pairs.push({ tag, platform });
        for (const container of leg.containers)
          await writeFile(
            join(junitDir, junitFileName(tag, leg.platform_slug, container.id)),
            junitXml(platform),
          );
      }
    }
    const seconds: number[] = [];
    let green = 0;
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      const verdicts = [];
      for (const pair of pairs) verdicts.push(await judgePair({ ...pair, legs: LEGS, junitDir }));
      seconds.push((performance.now() - started) / 1000);
      green = verdicts.filter((v) => v.green).length;
    }
    return {
      files: pairs.length * CONTAINERS.length,
      pairs: pairs.length,
      tests: TESTS.length,
      seconds,
      green,
    };
  } finally {
    await dir.remove();
  }
}

export async function runPipelineBench(options: { rounds?: number } = {}): Promise<PipelineBenchResult> {
  const rounds = options.rounds ?? 3;
  const plan = await benchPlan(rounds);
  const gating = await benchGating(rounds);
  const ok =
    plan.seconds.every((s) => s < pipelineGoal.planSeconds) &&
    plan.extraRequests <= pipelineGoal.planExtraRequests &&
    gating.green === gating.pairs &&
    gating.seconds.every((s) => s < pipelineGoal.gatingSeconds);
  return { plan, gating, ok };
}

const list = (values: number[]) => values.map((s) => s.toFixed(3)).join(" ");

export function formatPipelineBench(result: PipelineBenchResult): string {
  const { plan, gating } = result;
  const planOk = plan.seconds.every((s) => s < pipelineGoal.planSeconds);
  const requestsOk = plan.extraRequests <= pipelineGoal.planExtraRequests;
  const gatingOk =
    gating.seconds.every((s) => s < pipelineGoal.gatingSeconds) && gating.green === gating.pairs;
  return [
    `pipeline plan of ${checkFixtureShape.releases} releases x ${checkFixtureShape.platforms} platforms, ${checkFixtureShape.published} versions published (whole process)`,
    `  wall median ${median(plan.seconds).toFixed(2)} s (rounds s: ${list(plan.seconds)}), goal < ${pipelineGoal.planSeconds} s every round: ${planOk ? "met" : "NOT MET"}`,
    `  ${plan.versions} versions planned; forge requests ${plan.forgeRequests} (${plan.pages} pages), registry ${plan.tagListRequests} tag-list pages + ${plan.otherRegistryRequests} other`,
    `  requests beyond the pages: ${plan.extraRequests} (goal <= ${pipelineGoal.planExtraRequests}) ${requestsOk ? "met" : "NOT MET"}`,
    `pipeline push gating of ${gating.files} JUnit files (${gating.pairs} pairs x ${CONTAINERS.length} containers, ${gating.tests} tests each; in process, the decision before any push)`,
    `  median ${median(gating.seconds).toFixed(3)} s (rounds s: ${list(gating.seconds)}), ${gating.green}/${gating.pairs} green, goal < ${pipelineGoal.gatingSeconds} s every round: ${gatingOk ? "met" : "NOT MET"}`,
  ].join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await runPipelineBench();
  process.stdout.write(`${formatPipelineBench(result)}\n`);
}
