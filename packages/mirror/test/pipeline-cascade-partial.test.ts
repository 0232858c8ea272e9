import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { openRegistry, type Target } from "@pkg/oci";
import { runCli } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entriesOf, publish, writeIndex } from "../../package/test/support/cascade-repo.js";
import {
  type PipelineEnv,
  pipelineCli,
  pipelineSpec,
  planPrepareTest,
  pushRun,
  startPipelineEnv,
} from "./support/pipeline-env.js";
import { pkgBin, tagDigestsOf } from "./support/sync-run.js";

/**
 * `pipeline cascade` after `pipeline push`: a version with a red platform was published under its
 * primary tag only, and the repair must leave it so (announce behaviour 3), while a whole version
 * whose run was killed before its rolling tags still gets them.
 */
let env: PipelineEnv;

beforeAll(async () => {
  env = await startPipelineEnv("pkg-mirror-cascade-partial-", [
    { version: "1.0.0", assets: { "linux/amd64": "tar.gz", "linux/arm64": "binary" } },
    { version: "1.1.0", assets: { "linux/amd64": "tar.gz", "linux/arm64": "binary" } },
  ]);
}, 120_000);

afterAll(async () => {
  await env?.stop();
});

const repo = (repository: string): Target =>
  openRegistry({ host: env.registry.host, repository }, { env: {} });

async function writeSpec(name: string): Promise<string> {
  const file = `${name}.yml`;
  await writeFile(join(env.work.path, file), pipelineSpec(env.registry.host, `acme/${name}`));
  return file;
}

interface CascadeJson {
  check: { held_out?: string[]; clean: boolean };
  planned: Array<{ tag: string }>;
  moved_tags: string[];
  remaining: number;
}

async function cascade(file: string, extra: string[] = []) {
  const result = await pipelineCli(env, ["cascade", "--spec", file, "--format", "json", ...extra]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as CascadeJson;
}

const pkgCheck = (args: string[]) => runCli(pkgBin, ["package", "cascade", "check", ...args]);
const digestsOf = async (target: Target, tag: string) => (await entriesOf(target, tag)).map((e) => e.digest);

describe("pkg-mirror package pipeline cascade leaves a partial version without rolling tags", () => {
  it("a version pushed partial by pipeline push stays on its primary tag; an alias given its manifest is put back", async () => {
    const file = await writeSpec("partial");
    const { plan } = await planPrepareTest(env, "partial", file);
    const tagOf = (version: string) => plan.versions.find((v) => v.source_version === version)?.version ?? "";
    const [v100, v110] = [tagOf("1.0.0"), tagOf("1.1.0")];
    await rm(join(env.work.path, "partial", "bundles", `bundle-${v110}-linux-arm64.tar.zst`));
    const { push, summary } = await pushRun(env, "partial", [], file);
    expect(push.code, push.stderr).toBe(1);
    expect(summary.versions.map((v) => [v.version, v.status])).toEqual([
      [v100, "published"],
      [v110, "partial"],
    ]);
    const target = repo("acme/partial");
    const pushed = await tagDigestsOf(target);
    expect(Object.keys(pushed)).toEqual(["1", "1.0", "1.0.0", v100, v110, "latest"].sort());

    // the spec-less check cannot know 1.1.0 is partial: it reads a run killed before its tags
    const ref = `${env.registry.host}/acme/partial`;
    expect((await pkgCheck([ref])).code).toBe(65);
    expect((await pkgCheck(["--exclude-version", "1.1.0", ref])).code).toBe(0);

    // the spec's plan says 1.1.0 lacks arm64: held out, nothing to repair, nothing written
    const healthy = await cascade(file);
    expect(healthy).toMatchObject({
      check: { held_out: ["1.1.0"], clean: true },
      planned: [],
      moved_tags: [],
    });
    expect(await tagDigestsOf(target)).toEqual(pushed);

    // latest given 1.1.0's amd64 by hand (a manual cascading push of the partial version)
    const [amd64, arm64] = await entriesOf(target, v100);
    const [partialAmd64] = await entriesOf(target, v110);
    if (!amd64 || !arm64 || !partialAmd64) throw new Error("unexpected indexes");
    await writeIndex(target, [partialAmd64, arm64], "latest");
    const repaired = await cascade(file);
    expect(repaired.moved_tags).toEqual(["latest"]);
    expect(await digestsOf(target, "latest")).toEqual(await digestsOf(target, v100));
    expect(Object.keys(await tagDigestsOf(target))).toEqual(Object.keys(pushed));
    expect((await pkgCheck(["--exclude-version", "1.1.0", ref])).code).toBe(0);
  });

  it("a whole version killed between its primary and rolling tags still gets them, beside a partial one", async () => {
    const file = await writeSpec("killed");
    const target = repo("acme/killed");
    await publish(target, "1.0.0_20250101000000", ["linux/amd64", "linux/arm64"], false);
    await publish(target, "1.1.0_20250201000000", ["linux/amd64"], false);

    const dry = await pipelineCli(env, ["cascade", "--spec", file, "--dry-run", "--format", "json"]);
    expect(dry.code, dry.stderr).toBe(65);
    expect((JSON.parse(dry.stdout) as CascadeJson).planned.map((p) => p.tag)).toEqual([
      "1",
      "1.0",
      "1.0.0",
      "latest",
    ]);

    const report = await cascade(file);
    expect(report.check.held_out).toEqual(["1.1.0"]);
    expect(report.moved_tags).toEqual(["1", "1.0", "1.0.0", "latest"]);
    for (const tag of report.moved_tags)
      expect(await digestsOf(target, tag), tag).toEqual(await digestsOf(target, "1.0.0_20250101000000"));
    expect(Object.keys(await tagDigestsOf(target))).not.toContain("1.1");
    expect((await pkgCheck(["--exclude-version", "1.1.0", `${env.registry.host}/acme/killed`])).code).toBe(0);
    expect((await cascade(file)).planned).toEqual([]);
  });
});
