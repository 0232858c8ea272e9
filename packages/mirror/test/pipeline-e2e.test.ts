import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { openRegistry } from "@pkg/oci";
import {
  type RunningRegistry,
  runCli,
  startRegistry,
  type TempDir,
  type TestServer,
  tempDir,
} from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import type { PlanDocument } from "../src/pipeline/documents/plan-document.js";
import type { RunSummary } from "../src/pipeline/documents/run-summary.js";
import { type ChatWebhook, startChatWebhook } from "./support/chat-webhook.js";
import { startForge } from "./support/forge.js";
import { sampleUpstream } from "./support/sample-upstream.js";
import { mirrorBin, tagDigestsOf } from "./support/sync-run.js";

/**
 * The CI pipeline end to end, job by job as the generated workflow runs them, through the built
 * binaries: plan, prepare per version, a test leg per platform through pkg package test, push,
 * notify; against a real registry, a loopback forge serving the assets and a loopback webhook.
 */
const USER = "123456789012345678";
let work: TempDir;
let registry: RunningRegistry;
let forge: TestServer;
let webhook: ChatWebhook;

function spec(arm64Tests: Array<Record<string, string>>): string {
  return stringify({
    name: "hello",
    target: { registry: registry.host, repository: "acme/pipeline" },
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
      "linux/arm64": { runner: "ubuntu-24.04-arm", tests: arm64Tests },
    },
    notify: { chat: { webhook_secret: "CHAT_HOOK", user_id: USER } },
  });
}

const mirror = (args: string[], env: Record<string, string> = {}) =>
  runCli(mirrorBin, ["package", "pipeline", ...args], {
    cwd: work.path,
    env: { PKG_FORGEONE_API_URL: forge.url, ...env },
  });

async function ok(args: string[]) {
  const result = await mirror(args);
  expect(result.code, `${args.join(" ")}\n${result.stderr}`).toBe(0);
  return result;
}

/** The jobs of one CI run, in order; returns the plan and the push's exit code and summary. */
async function ciRun(round: string) {
  const dir = (name: string) => join(round, name);
  await ok(["plan", "--spec", "hello.yml", "-o", dir("plan.json")]);
  const plan = JSON.parse(await readFile(join(work.path, round, "plan.json"), "utf8")) as PlanDocument;
  for (const v of plan.versions)
    await ok([
      "prepare",
      "--spec",
      "hello.yml",
      "--plan",
      dir("plan.json"),
      "--version",
      v.version,
      "--bundles-dir",
      dir("bundles"),
    ]);
  const legs: Record<string, number> = {};
  for (const leg of Object.keys(plan.legs)) {
    const result = await mirror([
      "test",
      "--plan",
      dir("plan.json"),
      "--leg",
      leg,
      "--bundles-dir",
      dir("bundles"),
      "--junit-dir",
      dir("junit"),
    ]);
    legs[leg] = result.code;
  }
  const push = await mirror([
    "push",
    "--spec",
    "hello.yml",
    "--plan",
    dir("plan.json"),
    "--bundles-dir",
    dir("bundles"),
    "--junit-dir",
    dir("junit"),
    "--write-summary",
    dir("run-summary.json"),
  ]);
  const summary = JSON.parse(
    await readFile(join(work.path, round, "run-summary.json"), "utf8"),
  ) as RunSummary;
  return { plan, legs, push, summary };
}

beforeAll(async () => {
  work = await tempDir("pkg-mirror-pipeline-");
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
  registry = await startRegistry();
  const files = new Map<string, Buffer>();
  const releases: Parameters<typeof startForge>[0]["releases"] = [];
  forge = await startForge({ repo: "acme/hello", releases, files });
  const upstream = await sampleUpstream(join(work.path, "scratch"), forge.url, [
    { version: "1.0.0", assets: { "linux/amd64": "tar.gz", "linux/arm64": "binary" } },
    { version: "1.1.0", assets: { "linux/amd64": "tar.gz", "linux/arm64": "binary" } },
  ]);
  releases.push(...upstream.releases);
  for (const [name, bytes] of upstream.files) files.set(name, bytes);
  webhook = await startChatWebhook();
}, 120_000);

afterAll(async () => {
  await webhook?.stop();
  await forge?.stop();
  await registry?.stop();
  await work?.remove();
});

describe("the CI pipeline, job by job", () => {
  it("publishes the green version whole, the version with a failing test under its primary tag only, says why, notifies, and backfills once fixed", async () => {
    // 1.1.0 fails one test on linux/arm64 only
    await writeFile(
      join(work.path, "hello.yml"),
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
    expect(await readdir(join(work.path, "round1", "junit"))).toEqual(
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

    const target = openRegistry({ host: registry.host, repository: "acme/pipeline" }, { env: {} });
    const tags = await tagDigestsOf(target);
    expect(
      Object.keys(tags)
        .filter((t) => !t.startsWith("__"))
        .sort(),
    ).toEqual(["1", "1.0", "1.0.0", v100, v110, "latest"].sort());
    expect(tags.latest).toBe(tags[v100]);

    // notify: one message per version, the partial one yellow with the mention
    const notify = await mirror(
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
    await writeFile(join(work.path, "hello.yml"), spec([{ name: "greets", command: "hello" }]));
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
    const third = await ok(["plan", "--spec", "hello.yml", "--format", "json"]);
    expect((JSON.parse(third.stdout) as PlanDocument).versions).toEqual([]);
  });
});
