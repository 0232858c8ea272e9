import { appendFile, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { openRegistry } from "@pkg/oci";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlanDocument } from "../src/pipeline/documents/plan-document.js";
import {
  type PipelineEnv,
  pipelineCli,
  pipelineOk,
  pipelineSpec,
  planPrepareTest,
  pushRun,
  startPipelineEnv,
} from "./support/pipeline-env.js";
import { tagDigestsOf } from "./support/sync-run.js";

/** `pipeline push`: what it decides from the artefacts it finds, and what it then does. */
let env: PipelineEnv;

beforeAll(async () => {
  env = await startPipelineEnv("pkg-mirror-pipeline-push-", [
    { version: "2.0.0", assets: { "linux/amd64": "tar.gz", "linux/arm64": "binary" } },
  ]);
}, 120_000);

afterAll(async () => {
  await env?.stop();
});

/** A spec for its own repository, and the jobs before push run for it under `dir`. */
async function prepared(dir: string, extra: Record<string, unknown> = {}) {
  const file = `${dir}.yml`;
  await writeFile(join(env.work.path, file), pipelineSpec(env.registry.host, `acme/${dir}`, extra));
  const run = await planPrepareTest(env, dir, file);
  const [entry] = run.plan.versions;
  if (entry === undefined) throw new Error("nothing planned");
  return { ...run, file, tag: entry.version, plan: run.plan as PlanDocument };
}

const tagsOf = async (repository: string) =>
  Object.keys(await tagDigestsOf(openRegistry({ host: env.registry.host, repository }, { env: {} })))
    .filter((t) => !t.startsWith("__"))
    .sort();

describe("pkg-mirror package pipeline push", () => {
  it("reds a platform whose bundle never arrived, pushes the other under the primary tag only, and exits 1 after the summary", async () => {
    const { file, tag } = await prepared("lost");
    await rm(join(env.work.path, "lost", "bundles", `bundle-${tag}-linux-arm64.tar.zst`));
    const { push, summary } = await pushRun(env, "lost", [], file);
    expect(push.code, push.stderr).toBe(1);
    expect(push.stderr).toContain("linux/arm64: missing_bundle");
    expect(summary.versions).toEqual([
      expect.objectContaining({
        version: tag,
        status: "partial",
        platforms_pushed: ["linux/amd64"],
        platforms_failed: [expect.objectContaining({ platform: "linux/arm64", reason: "missing_bundle" })],
        cascade_tags_written: [tag],
      }),
    ]);
    expect(await tagsOf("acme/lost")).toEqual([tag]);
  });

  it("reds a bundle changed since prepare built it", async () => {
    const { file, tag } = await prepared("changed");
    await appendFile(join(env.work.path, "changed", "bundles", `bundle-${tag}-linux-amd64.tar.zst`), "x");
    const { push, summary } = await pushRun(env, "changed", [], file);
    expect(push.code).toBe(1);
    const failed = summary.versions[0]?.platforms_failed[0];
    expect(failed).toMatchObject({ platform: "linux/amd64", reason: "missing_bundle" });
    expect(failed?.message).toMatch(/has \d+ bytes, prepare wrote \d+/);
  });

  it("reds a bundle of the size prepare wrote whose bytes changed (its digest is checked)", async () => {
    const { file, tag } = await prepared("flipped");
    const bundle = join(env.work.path, "flipped", "bundles", `bundle-${tag}-linux-amd64.tar.zst`);
    const bytes = await readFile(bundle);
    bytes[bytes.length - 1] = (bytes.at(-1) ?? 0) ^ 0xff;
    await writeFile(bundle, bytes);
    const { push, summary } = await pushRun(env, "flipped", [], file);
    expect(push.code).toBe(1);
    const failed = summary.versions[0]?.platforms_failed[0];
    expect(failed).toMatchObject({ platform: "linux/amd64", reason: "missing_bundle" });
    expect(failed?.message).toMatch(
      /is not the file prepare built \(sha256:[0-9a-f]{64}, expected sha256:[0-9a-f]{64}\)/,
    );
    expect(summary.versions[0]?.platforms_pushed).toEqual(["linux/arm64"]);
  });

  it("reds a platform whose test leg never reported (missing_junit), and a planned version prepare never reported", async () => {
    const { file, tag } = await prepared("silent");
    await rm(join(env.work.path, "silent", "junit", `junit-${tag}-linux-arm64-native.xml`));
    const lost = await pushRun(env, "silent", [], file);
    expect(lost.summary.versions[0]?.platforms_failed).toEqual([
      expect.objectContaining({ platform: "linux/arm64", reason: "missing_junit" }),
    ]);
    expect(lost.summary.versions[0]?.test_failures).toEqual([
      expect.objectContaining({ platform: "linux/arm64", container: "native", test: "<junit>" }),
    ]);

    // with the plan, a version without prepared-<tag>.json is red, not silently absent
    await rm(join(env.work.path, "silent", "bundles", `prepared-${tag}.json`));
    const withPlan = await pushRun(env, "silent", ["--plan", join("silent", "plan.json")], file);
    expect(withPlan.push.code).toBe(1);
    expect(withPlan.summary.versions).toEqual([
      expect.objectContaining({
        version: tag,
        status: "failed",
        platforms_pushed: [],
        platforms_failed: [
          expect.objectContaining({ platform: "linux/amd64", reason: "missing_bundle" }),
          expect.objectContaining({ platform: "linux/arm64", reason: "missing_bundle" }),
        ],
      }),
    ]);
    const withoutPlan = await pushRun(env, "silent", [], file);
    expect(withoutPlan.push.code).toBe(0);
    expect(withoutPlan.summary.versions).toEqual([]);
  });

  it("pushes a green version whole; pushed again it is skipped_existing and its tags stay", async () => {
    const { file, tag } = await prepared("whole");
    const first = await pushRun(env, "whole", [], file);
    expect(first.push.code, first.push.stderr).toBe(0);
    expect(first.summary).toMatchObject({ any_red: false, any_new_green: true });
    expect(first.summary.versions[0]).toMatchObject({
      status: "published",
      platforms_pushed: ["linux/amd64", "linux/arm64"],
      cascade_tags_written: [tag, "2.0.0", "2.0", "2", "latest"],
    });
    // an archive mirror shares no wheel layers: all zero, as the spec says
    expect(first.summary.versions[0]?.layer_reuse).toEqual({ mounted: 0, uploaded: 0, verified: 0 });
    const tags = await tagsOf("acme/whole");
    const again = await pushRun(env, "whole", [], file);
    expect(again.push.code, again.push.stderr).toBe(0);
    expect(again.summary.versions[0]).toMatchObject({ status: "skipped_existing", platforms_pushed: [] });
    expect(again.summary).toMatchObject({ any_red: false, any_new_green: false });
    expect(await tagsOf("acme/whole")).toEqual(tags);
  });

  it("records the announce outcome: skipped without a credential keeps the run green", async () => {
    const { file } = await prepared("announced", { announce: { package: "acme/hello" } });
    const { push, summary } = await pushRun(env, "announced", [], file);
    expect(push.code, push.stderr).toBe(0);
    expect(summary.announce).toEqual({ package: "acme/hello", status: "skipped_no_credential" });
    expect(summary.any_red).toBe(false);
    expect(push.stdout).toContain("announce acme/hello: skipped_no_credential");
  });

  it("refuses a prepared manifest that is not one, naming the file (65)", async () => {
    const { file, tag } = await prepared("garbled");
    const manifest = join(env.work.path, "garbled", "bundles", `prepared-${tag}.json`);
    const doc = JSON.parse(await readFile(manifest, "utf8"));
    await writeFile(manifest, JSON.stringify({ ...doc, schema_version: 9 }));
    const { push } = await pushRun(env, "garbled", [], file);
    expect(push.code).toBe(65);
    expect(push.stderr).toContain(`prepared-${tag}.json: not a prepared-version manifest: schema_version 9`);
  });
});

describe("pkg-mirror package pipeline prepare", () => {
  it("reuses a finished bundle, refuses a version the plan lacks or a drift entry, and prepares without a plan", async () => {
    const { file, tag } = await prepared("again");
    const downloads = () => env.forge.requests.filter((r) => r.url.startsWith("/files/")).length;
    const before = downloads();
    const rerun = await pipelineOk(env, [
      "prepare",
      "--spec",
      file,
      "--plan",
      "again/plan.json",
      "--version",
      tag,
      "--bundles-dir",
      "again/bundles",
    ]);
    expect(rerun.stderr).toMatch(/^done \S+ \S+ in \d+\.\d s \(reused the bundle of an earlier run\)$/m);
    expect(downloads()).toBe(before);

    const unknown = await pipelineCli(env, [
      "prepare",
      "--spec",
      file,
      "--plan",
      "again/plan.json",
      "--version",
      "9.9.9_20260101000000",
    ]);
    expect(unknown.code).toBe(65);
    expect(unknown.stderr).toContain(`has no version 9.9.9_20260101000000 (it plans ${tag})`);

    const drifted: PlanDocument = JSON.parse(
      await readFile(join(env.work.path, "again", "plan.json"), "utf8"),
    );
    drifted.versions = [
      {
        ...drifted.versions[0],
        kind: "metadata-drift",
        platforms: [],
        assets: [],
      } as PlanDocument["versions"][number],
    ];
    await writeFile(join(env.work.path, "again", "drift.json"), JSON.stringify(drifted));
    const drift = await pipelineCli(env, [
      "prepare",
      "--spec",
      file,
      "--plan",
      "again/drift.json",
      "--version",
      tag,
    ]);
    expect(drift.code).toBe(65);
    expect(drift.stderr).toContain("metadata-drift entry: pipeline patch corrects it");

    // standalone: plans here; the bare version takes this plan's tag
    const alone = await pipelineOk(env, [
      "prepare",
      "--spec",
      file,
      "--version",
      "2.0.0",
      "--bundles-dir",
      "again/alone",
      "--format",
      "json",
    ]);
    const doc = JSON.parse(alone.stdout) as { plan: { version: string }; bundles: Array<{ bundle: string }> };
    expect(doc.plan.version).toMatch(/^2\.0\.0_\d{14}$/);
    expect(doc.bundles.map((b) => b.bundle)).toEqual([
      `bundle-${doc.plan.version}-linux-amd64.tar.zst`,
      `bundle-${doc.plan.version}-linux-arm64.tar.zst`,
    ]);
  });
});
