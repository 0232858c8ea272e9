import { describe, expect, it } from "vitest";
import type { RunAnnounce, RunSummary, RunVersion } from "../documents/run-summary.js";
import { buildChatMessages, CHAT_COLOR, type ChatMessage, indexRow } from "./message.js";

const USER = "123456789012345678";
const RUN = "https://forge.example/acme/mirrors/actions/runs/7";
const PUSH_JOB = "https://forge.example/acme/mirrors/actions/runs/7/job/3";
const LEG_JOB = "https://forge.example/acme/mirrors/actions/runs/7/job/9";

function version(overrides: Partial<RunVersion> = {}): RunVersion {
  return {
    version: "1.2.3_20250101000000",
    status: "published",
    platforms_pushed: ["linux/amd64", "linux/arm64"],
    platforms_failed: [],
    test_failures: [],
    platforms_excluded: [],
    cascade_tags_written: ["1.2.3_20250101000000", "1.2", "1", "latest"],
    layer_reuse: { mounted: 0, uploaded: 2, verified: 0 },
    ...overrides,
  };
}

function summary(versions: RunVersion[], overrides: Partial<RunSummary> = {}): RunSummary {
  return {
    schema_version: 1,
    mirror: "tool",
    target: "ghcr.io/acme/tool",
    run_url: RUN,
    push_job_url: PUSH_JOB,
    versions,
    any_red: versions.some((v) => v.status === "failed" || v.status === "partial"),
    any_new_green: versions.some((v) => v.platforms_pushed.length > 0),
    ...overrides,
  };
}

const skipped = version({ status: "skipped_existing", platforms_pushed: [], cascade_tags_written: [] });
const partial = version({
  version: "1.3.0_20250101000000",
  status: "partial",
  platforms_pushed: ["linux/amd64"],
  platforms_failed: [
    { platform: "linux/arm64", reason: "test_failed", message: "1 of 2 tests failed", job_url: LEG_JOB },
  ],
  test_failures: [
    { platform: "linux/arm64", container: "native", test: "version", message: "exit status 1" },
  ],
  platforms_excluded: [{ platform: "darwin/amd64", reason: "upstream ships a broken binary" }],
  cascade_tags_written: ["1.3.0_20250101000000"],
});
const failed = version({
  version: "1.4.0_20250101000000",
  status: "failed",
  platforms_pushed: [],
  platforms_failed: [
    {
      platform: "linux/amd64",
      reason: "missing_bundle",
      message: "no bundle-1.4.0_20250101000000-linux_amd64.tar.zst",
    },
    {
      platform: "linux/arm64",
      reason: "missing_junit",
      message: "no JUnit from the native leg",
      job_url: LEG_JOB,
    },
    { platform: "linux/riscv64", reason: "no_test_leg", message: "no leg covers +libc.musl" },
    { platform: "windows/amd64", reason: "push_error", message: "registry answered 500" },
  ],
  cascade_tags_written: [],
});
const announce = (status: RunAnnounce["status"], extra: Partial<RunAnnounce> = {}): RunAnnounce => ({
  package: "acme/tool",
  status,
  ...extra,
});

const embedOf = (message: ChatMessage) => message.embeds[0];

describe("buildChatMessages: when to be silent", () => {
  it.each([
    { name: "no versions", s: summary([]) },
    { name: "every version already existed", s: summary([skipped, { ...skipped, version: "1.0.0" }]) },
    {
      name: "already existed, with a broken exclude",
      s: summary([{ ...skipped, platforms_excluded: [{ platform: "darwin/amd64", reason: "broken" }] }]),
    },
    { name: "nothing new to announce", s: summary([skipped], { announce: announce("nothing_to_announce") }) },
    { name: "announced (a catch-up)", s: summary([], { announce: announce("announced", { tags: ["1"] }) }) },
  ])("$name: no message", ({ s }) => {
    expect(buildChatMessages(s, { userId: USER })).toEqual([]);
  });

  it.each([
    {
      status: "failed" as const,
      color: CHAT_COLOR.red,
      title: "ghcr.io/acme/tool: index announce failed",
      chip: "🔴",
    },
    {
      status: "interrupted" as const,
      color: CHAT_COLOR.red,
      title: "ghcr.io/acme/tool: index announce interrupted",
      chip: "🔴",
    },
    {
      status: "skipped_no_credential" as const,
      color: CHAT_COLOR.yellow,
      title: "ghcr.io/acme/tool: index announce skipped",
      chip: "🚫",
    },
  ])(
    "an announce $status alone is one message of its own, never green, mentioning no one",
    ({ status, color, title, chip }) => {
      const messages = buildChatMessages(
        summary([skipped], { announce: announce(status, { error: "forge said no" }) }),
        {
          userId: USER,
        },
      );
      expect(messages).toHaveLength(1);
      const [message] = messages as [ChatMessage];
      expect(message.content).toBeUndefined();
      expect(message.allowed_mentions).toEqual({ parse: [] });
      expect(embedOf(message)).toMatchObject({ title, color, url: RUN });
      expect(embedOf(message).fields).toEqual([
        { name: "Index", value: expect.stringMatching(`^${chip} `), inline: false },
      ]);
    },
  );
});

describe("buildChatMessages: the spec's notification table", () => {
  it("published versions: green embeds with their pushed platforms, no mention", () => {
    const messages = buildChatMessages(summary([version()]), { userId: USER });
    expect(messages).toEqual([
      {
        embeds: [
          {
            title: "ghcr.io/acme/tool: 1.2.3_20250101000000 published",
            url: RUN,
            color: 0x2ecc71,
            description: "Tags written: `1.2.3_20250101000000`, `1.2`, `1`, `latest`",
            fields: [
              {
                name: "Platforms",
                value: `🟢 \`linux/amd64\` [pushed](${PUSH_JOB})\n🟢 \`linux/arm64\` [pushed](${PUSH_JOB})`,
                inline: false,
              },
            ],
          },
        ],
        allowed_mentions: { parse: [] },
      },
    ]);
  });

  it("a partial version: yellow, its failure linked to the leg, the exclude with its reason, the failed test named, the user mentioned", () => {
    const [message] = buildChatMessages(summary([partial]), { userId: USER }) as [ChatMessage];
    expect(message.content).toBe(`<@${USER}>`);
    expect(message.allowed_mentions).toEqual({ parse: [], users: [USER] });
    expect(embedOf(message)).toEqual({
      title: "ghcr.io/acme/tool: 1.3.0_20250101000000 partial",
      url: RUN,
      color: 0xf1c40f,
      description:
        "Tags written: `1.3.0_20250101000000`\nExact tag only: rolling tags wait until every platform is green.",
      fields: [
        {
          name: "Platforms",
          value: [
            "🔒 `darwin/amd64` excluded: upstream ships a broken binary",
            `🟢 \`linux/amd64\` [pushed](${PUSH_JOB})`,
            `🔴 \`linux/arm64\` [test failed](${LEG_JOB}): 1 of 2 tests failed`,
          ].join("\n"),
          inline: false,
        },
        {
          name: "Failed tests",
          value: "`linux/arm64` · `native` · **version**: exit status 1",
          inline: false,
        },
      ],
    });
  });

  it("a failed version: red, 🚫 for an artefact that never arrived and 🔴 for a push failure, the user mentioned", () => {
    const [message] = buildChatMessages(summary([failed]), { userId: USER }) as [ChatMessage];
    expect(message.content).toBe(`<@${USER}>`);
    expect(message.allowed_mentions).toEqual({ parse: [], users: [USER] });
    expect(embedOf(message)).toMatchObject({
      title: "ghcr.io/acme/tool: 1.4.0_20250101000000 failed",
      url: RUN,
      color: 0xe74c3c,
      description: "Nothing was pushed for this version.",
    });
    expect(embedOf(message).fields[0]?.value.split("\n")).toEqual([
      "🚫 `linux/amd64` bundle never arrived: no bundle-1.4.0\\_20250101000000-linux\\_amd64.tar.zst",
      `🚫 \`linux/arm64\` [JUnit never arrived](${LEG_JOB}): no JUnit from the native leg`,
      "🚫 `linux/riscv64` no test leg covers it: no leg covers +libc.musl",
      "🔴 `windows/amd64` push failed: registry answered 500",
    ]);
  });

  it.each([
    { status: partial, userId: undefined },
    { status: failed, userId: undefined },
  ])("no user: no content and nothing to ping ($status.status)", ({ status, userId }) => {
    const [message] = buildChatMessages(summary([status]), { userId }) as [ChatMessage];
    expect(message.content).toBeUndefined();
    expect(message.allowed_mentions).toEqual({ parse: [] });
  });

  it("one message per reported version, oldest first; versions that already existed get none; the Index row on the first only", () => {
    const s = summary([skipped, version(), partial, failed], {
      announce: announce("failed", { error: "HTTP 500" }),
    });
    const messages = buildChatMessages(s, { userId: USER });
    expect(messages.map((m) => embedOf(m).title)).toEqual([
      "ghcr.io/acme/tool: 1.2.3_20250101000000 published",
      "ghcr.io/acme/tool: 1.3.0_20250101000000 partial",
      "ghcr.io/acme/tool: 1.4.0_20250101000000 failed",
    ]);
    expect(messages.map((m) => embedOf(m).color)).toEqual([
      CHAT_COLOR.green,
      CHAT_COLOR.yellow,
      CHAT_COLOR.red,
    ]);
    expect(messages.map((m) => m.content)).toEqual([undefined, `<@${USER}>`, `<@${USER}>`]);
    expect(messages.map((m) => embedOf(m).fields.map((f) => f.name))).toEqual([
      ["Platforms", "Index"],
      ["Platforms", "Failed tests"],
      ["Platforms"],
    ]);
    expect(embedOf(messages[0] as ChatMessage).fields[1]?.value).toBe(
      "🔴 `acme/tool`: **announce failed**: HTTP 500",
    );
    for (const message of messages) expect(message.embeds).toHaveLength(1);
  });
});

describe("indexRow", () => {
  it.each([
    {
      a: announce("announced", {
        tags: ["1.2.3", "1.2", "1", "latest"],
        request_url: "https://forge.example/idx/pull/4",
      }),
      row: "🟢 `acme/tool`: 4 tags announced ([request](https://forge.example/idx/pull/4))",
    },
    { a: announce("announced", { tags: ["1"] }), row: "🟢 `acme/tool`: 1 tag announced" },
    { a: announce("nothing_to_announce"), row: "⚪ `acme/tool`: nothing new to announce" },
    {
      a: announce("skipped_no_credential"),
      row: "🚫 `acme/tool`: **not announced**: the push job had no announce credential, so the index does not know this run's tags",
    },
    {
      a: announce("failed", { error: "forge answered 403" }),
      row: "🔴 `acme/tool`: **announce failed**: forge answered 403",
    },
    { a: announce("failed"), row: "🔴 `acme/tool`: **announce failed**: no detail recorded" },
    {
      a: announce("interrupted"),
      row: "🔴 `acme/tool`: **announce interrupted**: the run stopped during the call; the index may not know this run's tags",
    },
  ])("$a.status: $row", ({ a, row }) => {
    expect(indexRow(a)).toBe(row);
  });

  it("only an announced index is green", () => {
    for (const status of ["nothing_to_announce", "skipped_no_credential", "failed", "interrupted"] as const) {
      expect(indexRow(announce(status))).not.toMatch(/🟢/);
    }
  });
});

describe("buildChatMessages: caps and hostile text", () => {
  it("keeps every field within 1,024 characters at a line boundary, and the title within 256", () => {
    const platforms = Array.from({ length: 120 }, (_, i) => `linux/arch${String(i).padStart(3, "0")}`);
    const many = version({
      status: "failed",
      platforms_pushed: [],
      platforms_failed: platforms.map((platform) => ({
        platform,
        reason: "test_failed" as const,
        message: "x".repeat(500),
      })),
      test_failures: platforms.map((platform) => ({
        platform,
        container: "native",
        test: "t",
        message: "y".repeat(500),
      })),
      cascade_tags_written: [],
    });
    const [message] = buildChatMessages(
      summary([many], { target: `registry.example/${"a".repeat(400)}` }),
    ) as [ChatMessage];
    const embed = embedOf(message);
    expect(embed.title.length).toBeLessThanOrEqual(256);
    for (const field of embed.fields) {
      expect(field.value.length).toBeLessThanOrEqual(1024);
      const lines = field.value.split("\n");
      expect(lines.at(-1)).toMatch(/^… and \d+ more$/);
      // whole rows only: each kept row starts as a row does
      for (const line of lines.slice(0, -1)) expect(line).toMatch(/^(🔴 `linux\/arch|`linux\/arch)/);
    }
    const total =
      embed.title.length +
      (embed.description?.length ?? 0) +
      embed.fields.reduce((n, f) => n + f.name.length + f.value.length, 0);
    expect(total).toBeLessThanOrEqual(6000);
  });

  it("folds a multi-line message onto its row and escapes markdown, so it can neither break rows nor forge links", () => {
    const hostile = version({
      status: "partial",
      platforms_pushed: ["linux/amd64"],
      platforms_failed: [
        {
          platform: "linux/arm64",
          reason: "test_failed",
          message: "line one\nline *two* [click](https://evil.example) @everyone",
        },
      ],
    });
    const [message] = buildChatMessages(summary([hostile])) as [ChatMessage];
    const rows = embedOf(message).fields[0]?.value.split("\n") ?? [];
    expect(rows).toHaveLength(2);
    expect(rows[1]).toBe(
      "🔴 `linux/arm64` test failed: line one line \\*two\\* \\[click\\](https://evil.example) @everyone",
    );
    expect(message.allowed_mentions).toEqual({ parse: [] });
  });

  it("links nothing when the run and job URLs are absent or not http(s)", () => {
    const [message] = buildChatMessages(
      summary([partial], { run_url: "javascript:alert(1)", push_job_url: undefined }),
    ) as [ChatMessage];
    expect(embedOf(message).url).toBeUndefined();
    expect(embedOf(message).fields[0]?.value).toContain("🟢 `linux/amd64` pushed");
    const [plain] = buildChatMessages(summary([version()], { run_url: undefined })) as [ChatMessage];
    expect(embedOf(plain)).not.toHaveProperty("url");
  });
});
