import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type CliResult, runCli, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunSummary, RunVersion } from "../src/pipeline/documents/run-summary.js";
import type { ChatMessage } from "../src/pipeline/notify/message.js";
import { type ChatWebhook, startChatWebhook } from "./support/chat-webhook.js";
import { spec } from "./support/spec-case.js";

const bin = fileURLToPath(new URL("../bin/pkg-mirror.js", import.meta.url));
const USER = "123456789012345678";
const SPEC_USER = "876543210987654321";
const RUN = "https://forge.example/acme/mirrors/actions/runs/7";
const LEG_JOB = `${RUN}/job/9`;

let work: TempDir;
let hook: ChatWebhook;

beforeAll(async () => {
  work = await tempDir("pkg-mirror-notify-");
  await mkdir(join(work.path, ".git"));
  await writeFile(
    join(work.path, "mirror.yml"),
    spec({ notify: { chat: { webhook_secret: "CHAT_WEBHOOK_URL", user_id: SPEC_USER } } }),
  );
});
afterAll(async () => {
  await work?.remove();
});
beforeEach(async () => {
  hook = await startChatWebhook();
});
afterEach(async () => {
  await hook.stop();
});

function version(overrides: Partial<RunVersion>): RunVersion {
  return {
    version: "1.0.0_20250101000000",
    status: "published",
    platforms_pushed: ["linux/amd64", "linux/arm64"],
    platforms_failed: [],
    test_failures: [],
    platforms_excluded: [],
    cascade_tags_written: ["1.0.0_20250101000000"],
    layer_reuse: { mounted: 0, uploaded: 2, verified: 0 },
    ...overrides,
  };
}

const skipped = version({ status: "skipped_existing", platforms_pushed: [], cascade_tags_written: [] });
const green = version({
  cascade_tags_written: ["1.1.0_20250101000000", "1.1", "1", "latest"],
  version: "1.1.0_20250101000000",
});
const yellow = version({
  version: "1.2.0_20250101000000",
  status: "partial",
  platforms_pushed: ["linux/amd64"],
  platforms_failed: [
    { platform: "linux/arm64", reason: "test_failed", message: "1 of 2 tests failed", job_url: LEG_JOB },
  ],
  test_failures: [
    { platform: "linux/arm64", container: "native", test: "version", message: "exit status 1" },
  ],
  platforms_excluded: [{ platform: "darwin/amd64", reason: "upstream ships a broken binary" }],
  cascade_tags_written: ["1.2.0_20250101000000"],
});
const red = version({
  version: "1.3.0_20250101000000",
  status: "failed",
  platforms_pushed: [],
  platforms_failed: [
    { platform: "linux/amd64", reason: "missing_junit", message: "no JUnit file", job_url: LEG_JOB },
  ],
  cascade_tags_written: [],
});

async function writeSummary(
  name: string,
  versions: RunVersion[],
  extra: Partial<RunSummary> = {},
): Promise<string> {
  const doc: RunSummary = {
    schema_version: 1,
    mirror: "tool",
    target: "ghcr.io/acme/tools/tool",
    run_url: RUN,
    versions,
    any_red: versions.some((v) => v.status === "partial" || v.status === "failed"),
    any_new_green: versions.some((v) => v.platforms_pushed.length > 0),
    ...extra,
  };
  await writeFile(join(work.path, name), JSON.stringify(doc));
  return name;
}

function notify(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(bin, ["package", "pipeline", "notify", ...args], {
    cwd: work.path,
    // the variables are the test's to set: none comes from the environment the tests run in
    env: { PKG_MIRROR_CHAT_HOOK: "", PKG_MIRROR_CHAT_USER_ID: "", ...env },
  });
}

/** The webhook URL, its token and its path appear nowhere in what the command printed. */
function expectNoWebhook(result: CliResult): void {
  for (const output of [result.stdout, result.stderr]) {
    expect(output).not.toContain(hook.token);
    expect(output).not.toContain("/api/webhooks");
  }
}

const embedOf = (body: unknown) => (body as ChatMessage).embeds[0];

describe("pkg-mirror package pipeline notify", () => {
  it("is silent when every version already existed: no POST, exit 0, the reason in JSON", async () => {
    const file = await writeSummary("silent.json", [skipped], {
      announce: { package: "acme/tool", status: "nothing_to_announce" },
    });
    const result = await notify(["--run-summary", file, "--format", "json"], {
      PKG_MIRROR_CHAT_HOOK: hook.url,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ sent: 0, reason: "nothing to report" });
    expect(hook.requests).toHaveLength(0);
  });

  it("needs no webhook when there is nothing to send (text mode says so)", async () => {
    const file = await writeSummary("silent-text.json", []);
    const result = await notify(["--run-summary", file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("nothing to report: no version was published or failed\n");
    expect(result.stdout).toBe("");
  });

  it("sends green, yellow and red embeds as the spec's table says, mentioning the user on partial and failed only", async () => {
    const file = await writeSummary("run.json", [skipped, green, yellow, red], {
      announce: { package: "acme/tool", status: "skipped_no_credential" },
    });
    const result = await notify(["--run-summary", file, "--format", "json"], {
      PKG_MIRROR_CHAT_HOOK: hook.url,
      PKG_MIRROR_CHAT_USER_ID: USER,
    });
    expect(result.code, result.stderr).toBe(0);
    expectNoWebhook(result);
    const report = JSON.parse(result.stdout) as { sent: number; messages: ChatMessage[] };
    expect(report.sent).toBe(3);
    // what was printed is what was sent
    expect(hook.bodies).toEqual(report.messages);
    expect(hook.bodies.map((b) => embedOf(b).title)).toEqual([
      "ghcr.io/acme/tools/tool: 1.1.0_20250101000000 published",
      "ghcr.io/acme/tools/tool: 1.2.0_20250101000000 partial",
      "ghcr.io/acme/tools/tool: 1.3.0_20250101000000 failed",
    ]);
    expect(hook.bodies.map((b) => embedOf(b).color)).toEqual([0x2ecc71, 0xf1c40f, 0xe74c3c]);
    expect(hook.bodies.map((b) => embedOf(b).url)).toEqual([RUN, RUN, RUN]);
    expect(hook.bodies.map((b) => (b as ChatMessage).content)).toEqual([
      undefined,
      `<@${USER}>`,
      `<@${USER}>`,
    ]);
    expect(hook.bodies.map((b) => (b as ChatMessage).allowed_mentions)).toEqual([
      { parse: [] },
      { parse: [], users: [USER] },
      { parse: [], users: [USER] },
    ]);
    for (const body of hook.bodies) expect((body as ChatMessage).embeds).toHaveLength(1);
    const [first, second, third] = hook.bodies.map(embedOf);
    expect(first?.fields.find((f) => f.name === "Index")?.value).toMatch(
      /^🚫 `acme\/tool`: \*\*not announced\*\*/,
    );
    expect(second?.fields.map((f) => f.name)).toEqual(["Platforms", "Failed tests"]);
    expect(second?.fields[0]?.value.split("\n").map((row) => row.slice(0, 2))).toEqual(["🔒", "🟢", "🔴"]);
    expect(second?.fields[1]?.value).toContain("**version**");
    expect(third?.fields[0]?.value).toBe(
      `🚫 \`linux/amd64\` [JUnit never arrived](${LEG_JOB}): no JUnit file`,
    );
  });

  it("text mode: one line per message on stderr, nothing on stdout", async () => {
    const file = await writeSummary("text.json", [green, yellow]);
    const result = await notify(["--run-summary", file], { PKG_MIRROR_CHAT_HOOK: hook.url });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toEqual([
      "sent message 1 of 2 (ghcr.io/acme/tools/tool: 1.1.0_20250101000000 published)",
      "sent message 2 of 2 (ghcr.io/acme/tools/tool: 1.2.0_20250101000000 partial)",
    ]);
    expectNoWebhook(result);
  });

  it("mentions the spec's user_id when the variable is unset; the variable wins over it", async () => {
    const file = await writeSummary("mention.json", [yellow]);
    const fromSpec = await notify(["--run-summary", file, "--spec", "mirror.yml"], {
      PKG_MIRROR_CHAT_HOOK: hook.url,
    });
    expect(fromSpec.code, fromSpec.stderr).toBe(0);
    const fromEnv = await notify(["--run-summary", file, "--spec", "mirror.yml"], {
      PKG_MIRROR_CHAT_HOOK: hook.url,
      PKG_MIRROR_CHAT_USER_ID: USER,
    });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(hook.bodies.map((b) => (b as ChatMessage).allowed_mentions)).toEqual([
      { parse: [], users: [SPEC_USER] },
      { parse: [], users: [USER] },
    ]);
  });

  it("honours a 429's retry_after, then sends", async () => {
    hook.plan({
      status: 429,
      json: { message: "You are being rate limited.", retry_after: 0.05, global: false },
    });
    const file = await writeSummary("limited.json", [green]);
    const result = await notify(["--run-summary", file], { PKG_MIRROR_CHAT_HOOK: hook.url });
    expect(result.code, result.stderr).toBe(0);
    expect(hook.bodies).toHaveLength(2);
    expect(hook.bodies[1]).toEqual(hook.bodies[0]);
    expect(result.stderr).toMatch(/rate limited \(HTTP 429\); retry 1 of 3 in 0\.05 s/);
    expectNoWebhook(result);
  });

  it("401: exit 77 naming the spec's secret, the URL nowhere", async () => {
    hook.plan({ status: 401, json: { message: "Invalid Webhook Token", code: 50027 } });
    const file = await writeSummary("rejected.json", [green]);
    const result = await notify(["--run-summary", file, "--spec", "mirror.yml"], {
      PKG_MIRROR_CHAT_HOOK: hook.url,
    });
    expect(result.code).toBe(77);
    expect(result.stderr).toMatch(/the webhook was rejected \(HTTP 401\): check the secret CHAT_WEBHOOK_URL/);
    expectNoWebhook(result);
  });

  it("503: exit 69, the URL nowhere", async () => {
    hook.plan({ status: 503 });
    const file = await writeSummary("unavailable.json", [red]);
    const result = await notify(["--run-summary", file, "--format", "json"], {
      PKG_MIRROR_CHAT_HOOK: hook.url,
    });
    expect(result.code).toBe(69);
    expect(result.stderr).toMatch(/the chat service answered HTTP 503/);
    expectNoWebhook(result);
  });

  it("a webhook that cannot be reached: exit 69, the URL nowhere, even with PKG_DEBUG's stack", async () => {
    const gone = await startChatWebhook();
    await gone.stop();
    const file = await writeSummary("gone.json", [green]);
    const result = await notify(["--run-summary", file], { PKG_MIRROR_CHAT_HOOK: gone.url, PKG_DEBUG: "1" });
    expect(result.code).toBe(69);
    expect(result.stderr).toMatch(/the webhook could not be reached/);
    for (const output of [result.stdout, result.stderr]) {
      expect(output).not.toContain(gone.token);
      expect(output).not.toContain("/api/webhooks");
    }
  });

  it.each([
    { name: "not JSON", text: "{oops", problem: /not JSON/ },
    {
      name: "schema_version 2",
      text: JSON.stringify({ schema_version: 2 }),
      problem: /schema_version 2; this pkg-mirror reads schema_version 1/,
    },
    {
      name: "the wrong shape",
      text: JSON.stringify({ schema_version: 1, mirror: "tool" }),
      problem: /target: expected a string/,
    },
  ])("a run summary that is $name: exit 65 naming the file and the problem", async ({ text, problem }) => {
    await writeFile(join(work.path, "bad.json"), text);
    const result = await notify(["--run-summary", "bad.json"], { PKG_MIRROR_CHAT_HOOK: hook.url });
    expect(result.code).toBe(65);
    expect(result.stderr).toMatch(/^pkg-mirror: bad\.json: not a run summary: /);
    expect(result.stderr).toMatch(problem);
    expect(hook.requests).toHaveLength(0);
  });

  it("a run summary that is not there: exit 65 naming it", async () => {
    const result = await notify(["--run-summary", "missing.json"]);
    expect(result.code).toBe(65);
    expect(result.stderr).toMatch(/missing\.json: no such file or directory/);
  });

  it("PKG_MIRROR_CHAT_HOOK unset with something to send: exit 64, one line naming it", async () => {
    const file = await writeSummary("no-hook.json", [green]);
    const result = await notify(["--run-summary", file, "--spec", "mirror.yml"]);
    expect(result.code).toBe(64);
    expect(result.stderr).toBe(
      "pkg-mirror: PKG_MIRROR_CHAT_HOOK is not set: it holds the chat webhook URL (the workflow maps the secret CHAT_WEBHOOK_URL into it)\n",
    );
  });

  it("a malformed user id or hook: exit 64 without repeating the value", async () => {
    const file = await writeSummary("malformed.json", [yellow]);
    const user = await notify(["--run-summary", file], {
      PKG_MIRROR_CHAT_HOOK: hook.url,
      PKG_MIRROR_CHAT_USER_ID: "@here",
    });
    expect(user.code).toBe(64);
    expect(user.stderr).toMatch(/PKG_MIRROR_CHAT_USER_ID must be the numeric id of one user/);
    const notUrl = await notify(["--run-summary", file], { PKG_MIRROR_CHAT_HOOK: `ftp://x/${hook.token}` });
    expect(notUrl.code).toBe(64);
    expect(notUrl.stderr).toMatch(/PKG_MIRROR_CHAT_HOOK is not an http\(s\) webhook URL/);
    expect(notUrl.stderr).not.toContain(hook.token);
    expect(hook.requests).toHaveLength(0);
  });

  it("takes the URL from the environment only: there is no option for it", async () => {
    const file = await writeSummary("argv.json", [green]);
    const result = await notify(["--run-summary", file, "--webhook", hook.url]);
    expect(result.code).toBe(64);
    expect(hook.requests).toHaveLength(0);
    const help = await notify(["--help"]);
    expect(help.stdout).toMatch(/PKG_MIRROR_CHAT_HOOK holds the webhook URL/);
  });
});
