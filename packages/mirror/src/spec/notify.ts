import { ExitCode, registerSecret } from "@pkg/common";
import { isMap, isScalar } from "yaml";
import type { SectionContext } from "./context.js";
import { type Field, MapField } from "./field.js";

/** `notify.chat`: the webhook URL lives in a CI secret; only its name is in the spec. */
export interface NotifySpec {
  chat: {
    /** Name of the CI secret holding the webhook URL. */
    webhook_secret: string;
    /** Numeric id of the one user mentioned on failures. */
    user_id?: string;
  };
}

const SECRET_NAME = /^[A-Z][A-Z0-9_]+$/;
const USER_ID = /^[0-9]{17,20}$/;
/** The chat service (Discord-style) and its domain names: seeing one means a URL was pasted. */
const CHAT_DOMAINS = ["discord.com", "discordapp.com", "discord.gg"];

function isUrlLike(text: string): boolean {
  const lower = text.toLowerCase();
  return /^https?:\/\//.test(lower) || CHAT_DOMAINS.some((domain) => lower.includes(domain));
}

export function readNotify(field: Field, _ctx: SectionContext): NotifySpec | undefined {
  const map = mapOf(field, "a mapping with chat");
  if (!map) return undefined;
  map.only(["chat"]);
  const chatField = map.require("chat");
  const chat = chatField && mapOf(chatField, "a mapping with webhook_secret");
  if (!chat) return undefined;
  chat.only(["webhook_secret", "user_id"]);
  const secretField = chat.require("webhook_secret");
  const webhook_secret = secretField && readSecretName(secretField);
  const user_id = chat.has("user_id") ? readUserId(chat.get("user_id")) : undefined;
  if (webhook_secret === undefined || (chat.has("user_id") && user_id === undefined)) return undefined;
  return { chat: { webhook_secret, ...(user_id === undefined ? {} : { user_id }) } };
}

/** The field as a mapping; anything else is refused without repeating it (it may be a pasted webhook URL). */
function mapOf(field: Field, expected: string): MapField | undefined {
  if (isMap(field.value))
    return new MapField(field.source, field.diagnostics, field.node, field.path, field.anchor);
  const node = field.value;
  if (isScalar(node) && typeof node.value === "string" && isUrlLike(node.value)) {
    registerSecret(node.value);
    return field.fail(
      `expected ${expected}; the webhook URL belongs in a CI secret, never in the spec`,
      ExitCode.Usage,
    );
  }
  return field.fail(`expected ${expected}`);
}

/** The webhook URL is a credential: a pasted one is refused (64) without being repeated. */
function readSecretName(field: Field): string | undefined {
  const text = field.string();
  if (text === undefined) return undefined;
  if (isUrlLike(text)) {
    registerSecret(text);
    return field.fail(
      "is the name of the CI secret holding the webhook URL, never the URL itself: store the URL as a secret and give its name",
      ExitCode.Usage,
    );
  }
  if (!SECRET_NAME.test(text))
    return field.fail("must be a CI secret name (^[A-Z][A-Z0-9_]+$), such as CHAT_WEBHOOK_URL");
  return text;
}

function readUserId(field: Field): string | undefined {
  const node = field.value;
  if (isScalar(node) && typeof node.value === "number") {
    // 17-20 digits exceed a float's precision: the text would be altered, not just retyped
    return field.fail(`write the user id as a quoted string ("${node.source ?? String(node.value)}")`);
  }
  const text = field.string();
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (
    isUrlLike(trimmed) ||
    trimmed.includes("://") ||
    trimmed.startsWith("@") ||
    /^<@[!&]?.*>$/.test(trimmed)
  ) {
    return field.fail(
      "is the numeric id of one user (17 to 20 digits), not a URL or an @mention",
      ExitCode.Usage,
    );
  }
  if (!USER_ID.test(text)) return field.fail(`${JSON.stringify(text)} is not a user id (17 to 20 digits)`);
  return text;
}
