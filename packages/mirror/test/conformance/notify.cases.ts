import { expect } from "vitest";
import { type ConformanceCase, type SpecObject, spec } from "../support/spec-case.js";

type Json = Exclude<SpecObject[string], undefined>;

const chat = (value: Json) => spec({ notify: { chat: value } });
const HOOK = "https://discord.com/api/webhooks/1234567890/s3cr3t-w3bh00k-t0k3n";

export const cases: ConformanceCase[] = [
  {
    rule: "notify.chat.webhook_secret: the name of a CI secret; user_id is optional",
    yaml: chat({ webhook_secret: "CHAT_WEBHOOK_URL" }),
    exit: 0,
    check: (s) => expect(s.notify).toEqual({ chat: { webhook_secret: "CHAT_WEBHOOK_URL" } }),
  },
  {
    rule: "notify.chat.user_id: 17 to 20 digits, kept as text",
    yaml: spec({
      notify: { chat: { webhook_secret: "W1", user_id: "12345678901234567" } },
    }),
    exit: 0,
    check: (s) => expect(s.notify).toEqual({ chat: { webhook_secret: "W1", user_id: "12345678901234567" } }),
  },
  {
    rule: "notify.chat.user_id: 20 digits is the upper end",
    yaml: chat({ webhook_secret: "CHAT_HOOK", user_id: "12345678901234567890" }),
    exit: 0,
  },
  {
    rule: "notify: chat is required when notify is present",
    yaml: spec({ notify: {} }),
    exit: 65,
    path: "notify",
    message: /missing required key "chat"/,
  },
  {
    rule: "notify.chat: webhook_secret is required",
    yaml: chat({ user_id: "12345678901234567" }),
    exit: 65,
    path: "notify.chat",
    message: /missing required key "webhook_secret"/,
  },
  {
    rule: "notify.chat.webhook_secret: a pasted webhook URL is a usage error and is not repeated",
    yaml: chat({ webhook_secret: HOOK }),
    exit: 64,
    path: "notify.chat.webhook_secret",
    message: /^(?![\s\S]*s3cr3t)(?=[\s\S]*never the URL itself)/,
  },
  {
    rule: "notify.chat.webhook_secret: any http(s) URL is refused with 64",
    yaml: chat({ webhook_secret: "http://hooks.example.com/T000/B000" }),
    exit: 64,
    path: "notify.chat.webhook_secret",
  },
  {
    rule: "notify.chat.webhook_secret: a chat domain without a scheme is refused with 64",
    yaml: chat({ webhook_secret: "discordapp.com/api/webhooks/1/abc" }),
    exit: 64,
    path: "notify.chat.webhook_secret",
  },
  {
    rule: "notify.chat.webhook_secret: the invite domain counts as a chat domain",
    yaml: chat({ webhook_secret: "DISCORD.GG/ABC" }),
    exit: 64,
    path: "notify.chat.webhook_secret",
  },
  {
    rule: "notify.chat.webhook_secret: a lowercase name is malformed (65)",
    yaml: chat({ webhook_secret: "chat_webhook_url" }),
    exit: 65,
    path: "notify.chat.webhook_secret",
    message: /\^\[A-Z\]\[A-Z0-9_\]\+\$/,
  },
  {
    rule: "notify.chat.webhook_secret: a name starting with a digit is malformed",
    yaml: chat({ webhook_secret: "1WEBHOOK" }),
    exit: 65,
    path: "notify.chat.webhook_secret",
  },
  {
    rule: "notify.chat.webhook_secret: a one-character name is malformed (two at least)",
    yaml: chat({ webhook_secret: "W" }),
    exit: 65,
    path: "notify.chat.webhook_secret",
  },
  {
    rule: "notify.chat.webhook_secret: must be a string",
    yaml: chat({ webhook_secret: ["CHAT_WEBHOOK_URL"] }),
    exit: 65,
    path: "notify.chat.webhook_secret",
  },
  {
    rule: "notify.chat.user_id: a profile URL is a usage error",
    yaml: chat({
      webhook_secret: "CHAT_WEBHOOK_URL",
      user_id: "https://discord.com/users/123456789012345678",
    }),
    exit: 64,
    path: "notify.chat.user_id",
    message: /not a URL or an @mention/,
  },
  {
    rule: "notify.chat.user_id: an @mention is a usage error",
    yaml: chat({ webhook_secret: "CHAT_WEBHOOK_URL", user_id: "@alice" }),
    exit: 64,
    path: "notify.chat.user_id",
  },
  {
    rule: "notify.chat.user_id: a <@id> mention is a usage error",
    yaml: chat({ webhook_secret: "CHAT_WEBHOOK_URL", user_id: "<@123456789012345678>" }),
    exit: 64,
    path: "notify.chat.user_id",
  },
  {
    rule: "notify.chat.user_id: a role mention <@&id> is a usage error",
    yaml: chat({ webhook_secret: "CHAT_WEBHOOK_URL", user_id: "<@&123456789012345678>" }),
    exit: 64,
    path: "notify.chat.user_id",
  },
  {
    rule: "notify.chat.user_id: 16 digits is malformed (65)",
    yaml: chat({ webhook_secret: "CHAT_WEBHOOK_URL", user_id: "1234567890123456" }),
    exit: 65,
    path: "notify.chat.user_id",
    message: /17 to 20 digits/,
  },
  {
    rule: "notify.chat.user_id: 21 digits is malformed",
    yaml: chat({ webhook_secret: "CHAT_WEBHOOK_URL", user_id: "123456789012345678901" }),
    exit: 65,
    path: "notify.chat.user_id",
  },
  {
    rule: "notify.chat.user_id: a user name is malformed",
    yaml: chat({ webhook_secret: "CHAT_WEBHOOK_URL", user_id: "alice#1234" }),
    exit: 65,
    path: "notify.chat.user_id",
  },
  {
    rule: "notify.chat.user_id: an unquoted number is refused with a hint to quote it (its digits would change)",
    yaml: `${spec()}notify:\n  chat:\n    webhook_secret: CHAT_WEBHOOK_URL\n    user_id: 123456789012345678\n`,
    exit: 65,
    path: "notify.chat.user_id",
    message: /quoted string \("123456789012345678"\)/,
  },
  {
    rule: "notify: an unknown key is refused",
    yaml: spec({ notify: { chat: { webhook_secret: "CHAT_WEBHOOK_URL" }, slack: {} } }),
    exit: 65,
    path: "notify.slack",
    message: /unknown key "slack"/,
  },
  {
    rule: "notify.chat: an unknown key is refused naming the closest",
    yaml: chat({ webhook_secret: "CHAT_WEBHOOK_URL", userid: "123456789012345678" }),
    exit: 65,
    path: "notify.chat.userid",
    message: /did you mean "user_id"/,
  },
  {
    rule: "notify.chat: must be a mapping",
    yaml: chat("CHAT_WEBHOOK_URL"),
    exit: 65,
    path: "notify.chat",
    message: /expected a mapping/,
  },
  {
    rule: "notify.chat: a webhook URL in place of the mapping is a usage error and is not repeated",
    yaml: chat(HOOK),
    exit: 64,
    path: "notify.chat",
    message: /^(?![\s\S]*s3cr3t)(?=[\s\S]*never in the spec)/,
  },
];
