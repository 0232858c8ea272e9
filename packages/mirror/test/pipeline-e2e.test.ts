import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { openRegistry } from "@pkg/oci";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlanDocument } from "../src/pipeline/documents/plan-document.js";
import type { RunSummary } from "../src/pipeline/documents/run-summary.js";
import { type ChatWebhook, startChatWebhook } from "./support/chat-webhook.js";
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

/**
 * The CI pipeline end to end, job by job as the generated workflow runs them, through the built
 * binaries: plan, prepare per version, a test leg per platform through pkg package test, push,
 * notify; against a real registry, a loopback forge serving the assets and a loopback webhook.
 */
const USER = "123456789012345678";
let env: PipelineEnv;
let webhook: ChatWebhook;

const spec = (arm64Tests: Array<Record<string, string>>) =>
  pipelineSpec(env.registry.host, "acme/pipeline", {
    platforms: {
      "linux/amd64": { runner: "ubuntu-24.04" },
      "linux/arm64": { runner: "ubuntu-24.04-arm", tests: arm64Tests },
    },
    notify: { chat: { webhook_secret: "CHAT_HOOK", user_id: USER } },
  });

async function ciRun(round: string) {
  const { plan, legs } = await planPrepareTest(env, round);
  const { push, summary } = await pushRun(env, round, ["--plan", join(round, "plan.json")]);
  return { plan, legs, push, summary };
}

beforeAll(async () => {
  env = await startPipelineEnv("pkg-mirror-pipeline-", [
    { version: "1.0.0", assets: { "linux/amd64": "tar.gz", "linux/arm64": "binary" } },
    { version: "1.1.0", assets: { "linux/amd64": "tar.gz", "linux/arm64": "binary" } },
  ]);
  webhook = await startChatWebhook();
}, 120_000);

afterAll(async () => {
  await webhook?.stop();
  await env?.stop();
});

describe("the CI pipeline, job by job", () => {
  it("publishes the green version whole, the version with a failing test under its primary tag only, says why, notifies, and backfills once fixed", async () => {
    // 1.1.0 fails one test on linux/arm64 only
    await writeFile(
      join(env.work.path, "hello.yml"),
      spec([
        { name: "greets", command: "hello" },
        { name: "not-1-1", command: 'test "$PKG_VERSION" != 1.1.0' },
      ]),
    );
    const first = await ciRun("round1");
    expect(first.plan.versions.map((v) => [v.source_version, v.kind, v.platforms])).toEqual([
      ["1.0.0", "new", ["linux/amd64", "linux/arm64"]],
      ["1.1.0", "new", ["linux/amd64", "linux/arm64"]],
    ]);
    const [v100, v110] = first.plan.versions.map((v) => v.version) as [string, string];
    expect(await readdir(join(env.work.path, "round1", "junit"))).toEqual(
      [
        `junit-${v100}-linux-amd64-native.xml`,
        `junit-${v100}-linux-arm64-native.xml`,
        `junit-${v110}-linux-amd64-native.xml`,
        `junit-${v110}-linux-arm64-native.xml`,
      ].sort(),
    );
    expect(first.legs).toEqual({ "linux/amd64": 0, "linux/arm64": 1 });

    // push: red run, exit 1 after the summary is written
    expect(first.push.code, first.push.stderr).toBe(1);
    const { summary } = first;
    expect(summary).toMatchObject({ schema_version: 1, mirror: "hello", any_red: true, any_new_green: true });
    expect(summary.versions.map((v) => [v.version, v.status])).toEqual([
      [v100, "published"],
      [v110, "partial"],
    ]);
    const [green, partial] = summary.versions as [
      RunSummary["versions"][number],
      RunSummary["versions"][number],
    ];
    expect(green.platforms_pushed).toEqual(["linux/amd64", "linux/arm64"]);
    expect(green.cascade_tags_written).toEqual([v100, "1.0.0", "1.0", "1", "latest"]);
    expect(partial.platforms_pushed).toEqual(["linux/amd64"]);
    expect(partial.cascade_tags_written).toEqual([v110]);
    expect(partial.platforms_failed).toEqual([
      expect.objectContaining({ platform: "linux/arm64", reason: "test_failed" }),
    ]);
    expect(partial.test_failures).toEqual([
      expect.objectContaining({ platform: "linux/arm64", container: "native", test: "not-1-1" }),
    ]);

    const target = openRegistry({ host: env.registry.host, repository: "acme/pipeline" }, { env: {} });
    const tags = await tagDigestsOf(target);
    expect(
      Object.keys(tags)
        .filter((t) => !t.startsWith("__"))
        .sort(),
    ).toEqual(["1", "1.0", "1.0.0", v100, v110, "latest"].sort());
    expect(tags.latest).toBe(tags[v100]);

    // notify: one message per version, the partial one yellow with the mention
    const notify = await pipelineCli(
      env,
      ["notify", "--run-summary", "round1/run-summary.json", "--spec", "hello.yml"],
      {
        PKG_MIRROR_CHAT_HOOK: webhook.url,
      },
    );
    expect(notify.code, notify.stderr).toBe(0);
    expect(`${notify.stdout}${notify.stderr}`).not.toContain(webhook.token);
    type Body = {
      content?: string;
      allowed_mentions: unknown;
      embeds: Array<{ title: string; color: number; fields: Array<{ value: string }> }>;
    };
    const bodies = webhook.bodies as Body[];
    expect(bodies).toHaveLength(2);
    const [first1, second] = bodies as [Body, Body];
    expect(first1.embeds).toHaveLength(1);
    expect(first1.embeds[0]?.color).toBe(0x2ecc71);
    expect(first1.content).toBeUndefined();
    expect(second.embeds[0]?.color).toBe(0xf1c40f);
    expect(second.embeds[0]?.title).toContain(v110);
    expect(second.content).toBe(`<@${USER}>`);
    expect(second.allowed_mentions).toEqual({ parse: [], users: [USER] });
    const rows = second.embeds[0]?.fields.map((f) => f.value).join("\n") ?? "";
    expect(rows).toContain("🟢");
    expect(rows).toContain("🔴");
    expect(rows).toContain("not-1-1");

    // the test is fixed: the next run backfills linux/arm64 of 1.1.0 and makes it whole
    await writeFile(join(env.work.path, "hello.yml"), spec([{ name: "greets", command: "hello" }]));
    const second2 = await ciRun("round2");
    expect(second2.plan.versions.map((v) => [v.version, v.kind, v.platforms, v.carried])).toEqual([
      [expect.stringMatching(/^1\.1\.0_\d{14}$/), "backfill", ["linux/arm64"], ["linux/amd64"]],
    ]);
    expect(second2.push.code, second2.push.stderr).toBe(0);
    expect(second2.summary.versions[0]).toMatchObject({
      status: "published",
      platforms_pushed: ["linux/arm64"],
    });
    expect(second2.summary.versions[0]?.cascade_tags_written).toEqual(
      expect.arrayContaining(["1.1.0", "1.1", "1", "latest"]),
    );
    const after = await tagDigestsOf(target);
    expect(after.latest).toBe(after["1.1.0"]);

    // and a re-run plans nothing
    const third = await pipelineOk(env, ["plan", "--spec", "hello.yml", "--format", "json"]);
    expect((JSON.parse(third.stdout) as PlanDocument).versions).toEqual([]);
  });
});
