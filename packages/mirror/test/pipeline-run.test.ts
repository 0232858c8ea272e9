import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { openLayout } from "@pkg/oci";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunSummary } from "../src/pipeline/documents/run-summary.js";
import { type PipelineEnv, pipelineCli, pipelineSpec, startPipelineEnv } from "./support/pipeline-env.js";
import { tagDigestsOf } from "./support/sync-run.js";

/** `pipeline run`: the CI pipeline on this machine, into an OCI layout. */
let env: PipelineEnv;

beforeAll(async () => {
  env = await startPipelineEnv("pkg-mirror-pipeline-run-", [
    { version: "3.0.0", assets: { "linux/amd64": "tar.gz", "linux/arm64": "binary" } },
  ]);
}, 120_000);

afterAll(async () => {
  await env?.stop();
});

const run = (spec: string, workDir: string) =>
  pipelineCli(env, ["run", "--spec", spec, "--work-dir", workDir, "--layout", "layout"]);

describe("pkg-mirror package pipeline run", () => {
  it("runs the legs of this host, keeps the others red (fail closed), and leaves the files CI would", async () => {
    await writeFile(join(env.work.path, "both.yml"), pipelineSpec(env.registry.host, "acme/both"));
    const result = await run("both.yml", "both-run");
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain(
      "not run here: leg linux/arm64 (native): a linux/arm64 leg; this host is linux/amd64",
    );
    const dir = join(env.work.path, "both-run");
    expect((await readdir(dir)).sort()).toEqual([
      "bundles",
      "junit",
      "plan.json",
      "run-summary.json",
      "work",
    ]);
    const summary = JSON.parse(await readFile(join(dir, "run-summary.json"), "utf8")) as RunSummary;
    const [version] = summary.versions;
    expect(version).toMatchObject({
      status: "partial",
      platforms_pushed: ["linux/amd64"],
      platforms_failed: [expect.objectContaining({ platform: "linux/arm64", reason: "missing_junit" })],
    });
    expect(await readdir(join(dir, "junit"))).toEqual([`junit-${version?.version}-linux-amd64-native.xml`]);
    const tags = await tagDigestsOf(openLayout(join(env.work.path, "layout"), "acme/both"));
    expect(Object.keys(tags).filter((t) => !t.startsWith("__"))).toEqual([version?.version]);
  });

  it("publishes a spec this host can test whole, and a second run finds nothing to do", async () => {
    const spec = pipelineSpec(env.registry.host, "acme/amd64", {
      assets: { "linux/amd64": ["^hello-.*-linux-amd64\\.tar\\.gz$"] },
      asset_type: { type: "archive", strip_components: 1 },
      platforms: { "linux/amd64": { runner: "ubuntu-24.04" } },
    });
    await writeFile(join(env.work.path, "amd64.yml"), spec);
    const first = await run("amd64.yml", "amd64-run");
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(
      /^3\.0\.0_\d{14}: published; pushed linux\/amd64; tags 3\.0\.0_\d{14}, 3\.0\.0, 3\.0, 3, latest$/m,
    );
    // the pushed pair's build directory is gone
    expect(await readdir(join(env.work.path, "amd64-run", "work", "hello"))).toEqual([]);
    const second = await run("amd64.yml", "amd64-run");
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("nothing prepared, nothing pushed");
  });
});
