import { type Logger, PkgError, silentTasks } from "@pkg/common";
import { createHttpClient, type PooledHttpClient } from "@pkg/net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CHAT_COLOR, type ChatMessage } from "../src/pipeline/notify/message.js";
import { PACE_MS, postChatMessages } from "../src/pipeline/notify/post.js";
import { type ChatWebhook, startChatWebhook } from "./support/chat-webhook.js";

let http: PooledHttpClient;
let hook: ChatWebhook;
let sleeps: number[];
let lines: string[];

const log: Logger = {
  info: (line) => lines.push(line),
  warn: (line) => lines.push(`warning: ${line}`),
  progress: (line) => lines.push(line),
  tasks: silentTasks,
};
const sleep = async (ms: number) => {
  sleeps.push(ms);
};

function message(title: string): ChatMessage {
  return {
    embeds: [
      {
        title,
        color: CHAT_COLOR.green,
        fields: [{ name: "Platforms", value: "🟢 `linux/amd64` pushed", inline: false }],
      },
    ],
    allowed_mentions: { parse: [] },
  };
}

const post = (messages: ChatMessage[], url = hook.url, secretName: string | undefined = "CHAT_WEBHOOK_URL") =>
  postChatMessages(messages, { http, hookUrl: url, secretName, log, sleep });

async function refusal(promise: Promise<unknown>): Promise<PkgError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PkgError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

beforeAll(() => {
  http = createHttpClient({ env: {}, userAgent: "pkg-mirror-test" });
});
afterAll(async () => {
  await http.close();
});
beforeEach(async () => {
  hook = await startChatWebhook();
  sleeps = [];
  lines = [];
});
afterEach(async () => {
  await hook.stop();
  // nothing said, in any line, where the webhook is
  for (const line of lines) {
    expect(line).not.toContain(hook.token);
    expect(line).not.toContain("/api/webhooks");
  }
});

describe("postChatMessages", () => {
  it("posts the bodies in order, paced 750 ms apart with no wait before the first, one log line each", async () => {
    const messages = [message("a"), message("b"), message("c")];
    await expect(post(messages)).resolves.toBe(3);
    expect(hook.bodies).toEqual(messages);
    expect(sleeps).toEqual([PACE_MS, PACE_MS]);
    expect(hook.requests.map((r) => r.headers["content-type"])).toEqual(Array(3).fill("application/json"));
    expect(lines).toEqual(["sent message 1 of 3 (a)", "sent message 2 of 3 (b)", "sent message 3 of 3 (c)"]);
  });

  it("a 429 waits the body's retry_after (fractional seconds), then sends the same body again", async () => {
    hook.plan({
      status: 429,
      json: { message: "You are being rate limited.", retry_after: 1.234, global: false },
    });
    await expect(post([message("a"), message("b")])).resolves.toBe(2);
    expect(hook.bodies).toEqual([message("a"), message("a"), message("b")]);
    expect(sleeps).toEqual([1234, PACE_MS]);
    expect(lines[0]).toBe("message 1 of 2 (a): rate limited (HTTP 429); retry 1 of 3 in 1.23 s");
  });

  it.each([
    {
      name: "the Retry-After header when the body has none",
      answer: { status: 429, headers: { "retry-after": "2" } },
      wait: 2000,
    },
    {
      name: "the body over the header",
      answer: { status: 429, json: { retry_after: 0.5 }, headers: { "retry-after": "9" } },
      wait: 500,
    },
    {
      name: "a long retry_after cut to 60 s",
      answer: { status: 429, json: { retry_after: 600 } },
      wait: 60_000,
    },
    {
      name: "a negative retry_after as no wait",
      answer: { status: 429, json: { retry_after: -3 } },
      wait: 0,
    },
    { name: "1 s when nothing says how long", answer: { status: 429 }, wait: 1000 },
    {
      name: "a Retry-After date in the past as no wait",
      answer: { status: 429, headers: { "retry-after": "Wed, 21 Oct 2015 07:28:00 GMT" } },
      wait: 0,
    },
  ])("a 429 honours $name", async ({ answer, wait }) => {
    hook.plan(answer);
    await post([message("a")]);
    expect(sleeps).toEqual([wait]);
    expect(hook.bodies).toHaveLength(2);
  });

  it("gives up after 3 retries of 429: exit 69, naming the scope", async () => {
    const limited = { status: 429, json: { retry_after: 0.1 }, headers: { "x-ratelimit-scope": "shared" } };
    hook.plan(limited, limited, limited, limited);
    const error = await refusal(post([message("a")]));
    expect(error.exitCode).toBe(69);
    expect(error.message).toBe(
      "message 1 of 1 (a): the webhook is rate limited (HTTP 429) after 3 retries (scope: shared)",
    );
    expect(hook.bodies).toHaveLength(4);
    expect(sleeps).toEqual([100, 100, 100]);
  });

  it.each([401, 403])("%i: exit 77, naming the secret to check", async (status) => {
    hook.plan({ status, json: { message: "Invalid Webhook Token", code: 50027 } });
    const error = await refusal(post([message("a"), message("b")]));
    expect(error.exitCode).toBe(77);
    expect(error.message).toBe(
      `message 1 of 2 (a): the webhook was rejected (HTTP ${status}): check the secret CHAT_WEBHOOK_URL (deleted or rotated webhook?)`,
    );
    expect(hook.bodies).toHaveLength(1);
  });

  it("401 without a spec names the variable's secret", async () => {
    hook.plan({ status: 401 });
    const error = await refusal(postChatMessages([message("a")], { http, hookUrl: hook.url, log, sleep }));
    expect(error.message).toMatch(/check the secret whose value is in PKG_MIRROR_CHAT_HOOK/);
  });

  it.each([500, 502, 503])("%i: exit 69, not retried", async (status) => {
    hook.plan({ status });
    const error = await refusal(post([message("a")]));
    expect(error.exitCode).toBe(69);
    expect(error.message).toBe(
      `message 1 of 1 (a): the chat service answered HTTP ${status}: unavailable, try again later`,
    );
    expect(hook.bodies).toHaveLength(1);
  });

  it("another 4xx: exit 69 with the service's word; a failure after the first says how many went before it", async () => {
    hook.plan({ status: 204 }, { status: 400, json: { message: "Invalid Form Body", code: 50035 } });
    const error = await refusal(post([message("a"), message("b"), message("c")]));
    expect(error.exitCode).toBe(69);
    expect(error.message).toBe(
      "message 2 of 3 (b): the webhook answered HTTP 400 (Invalid Form Body): unexpected answer; 1 sent before it",
    );
    expect(hook.bodies).toHaveLength(2);
  });

  it("a redirect is not followed (a webhook never moves): exit 69", async () => {
    hook.plan({ status: 308, headers: { location: "http://127.0.0.1:1/elsewhere" } });
    const error = await refusal(post([message("a")]));
    expect(error.exitCode).toBe(69);
    expect(error.message).toMatch(/answered HTTP 308/);
  });

  it("a webhook that cannot be reached: exit 69, its URL (token in the path) left out of the message", async () => {
    const gone = await startChatWebhook();
    await gone.stop();
    const error = await refusal(post([message("a")], gone.url));
    expect(error.exitCode).toBe(69);
    expect(error.message).toMatch(/^message 1 of 1 \(a\): the webhook could not be reached: .*ECONNREFUSED/);
    expect(error.message).not.toContain(gone.token);
    expect(error.message).not.toContain("/api/webhooks");
  });
});
