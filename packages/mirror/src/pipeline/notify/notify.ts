import { readFile } from "node:fs/promises";
import { ExitCode, type Logger, PkgError, registerSecret } from "@pkg/common";
import type { HttpClient } from "@pkg/net";
import type { NotifySpec } from "../../spec/notify.js";
import { buildChatMessages, type ChatMessage } from "./message.js";
import { postChatMessages, webhookForms } from "./post.js";
import { parseRunSummary } from "./read-run-summary.js";

/** The webhook URL: only ever from here (the generated workflow maps the spec's secret into it). */
export const CHAT_HOOK_ENV = "PKG_MIRROR_CHAT_HOOK";
/** The user to mention; wins over the spec's `notify.chat.user_id`. */
export const CHAT_USER_ENV = "PKG_MIRROR_CHAT_USER_ID";

const USER_ID = /^[0-9]{17,20}$/;

export interface NotifyOptions {
  /** `run-summary.json`, as the push step wrote it. */
  summaryFile: string;
  env: NodeJS.ProcessEnv;
  /** The spec's `notify` block, when a spec was read. */
  notify?: NotifySpec | undefined;
  http: HttpClient;
  log: Logger;
  /** Waits (pacing, 429 retries); tests record them instead. */
  sleep?: (ms: number) => Promise<void>;
}

/** What notify did: the messages sent (the bodies, no URL), or why nothing was. */
export type NotifyReport =
  | { sent: number; messages: ChatMessage[] }
  | { sent: 0; reason: "nothing to report" };

/** The user to mention: the environment's (empty = unset), else the spec's; a malformed one is refused (64). */
export function chatUserId(env: NodeJS.ProcessEnv, notify: NotifySpec | undefined): string | undefined {
  const fromEnv = env[CHAT_USER_ENV]?.trim();
  if (fromEnv) {
    if (!USER_ID.test(fromEnv)) {
      throw new PkgError(
        ExitCode.Usage,
        `${CHAT_USER_ENV} must be the numeric id of one user (17 to 20 digits)`,
      );
    }
    return fromEnv;
  }
  return notify?.chat.user_id;
}

/** The webhook URL from the environment, registered as a secret; unset or not an http(s) URL is 64. */
function chatHook(env: NodeJS.ProcessEnv, notify: NotifySpec | undefined): string {
  const hook = env[CHAT_HOOK_ENV]?.trim();
  if (!hook) {
    const secret = notify ? ` (the workflow maps the secret ${notify.chat.webhook_secret} into it)` : "";
    throw new PkgError(ExitCode.Usage, `${CHAT_HOOK_ENV} is not set: it holds the chat webhook URL${secret}`);
  }
  for (const form of webhookForms(hook)) registerSecret(form);
  let url: URL | undefined;
  try {
    url = new URL(hook);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password) {
    throw new PkgError(ExitCode.Usage, `${CHAT_HOOK_ENV} is not an http(s) webhook URL without credentials`);
  }
  return hook;
}

/**
 * Tells the chat what a pipeline run did: reads and checks the run summary (65), builds the
 * messages, and posts them through the webhook in `PKG_MIRROR_CHAT_HOOK` (needed only when there
 * is something to send). Exit 77 when the webhook is rejected, 69 when the service fails.
 */
export async function runNotify(options: NotifyOptions): Promise<NotifyReport> {
  const summary = parseRunSummary(await readFile(options.summaryFile, "utf8"), options.summaryFile);
  const userId = chatUserId(options.env, options.notify);
  const messages = buildChatMessages(summary, { userId });
  if (messages.length === 0) return { sent: 0, reason: "nothing to report" };
  const hookUrl = chatHook(options.env, options.notify);
  const sent = await postChatMessages(messages, {
    http: options.http,
    hookUrl,
    secretName: options.notify?.chat.webhook_secret,
    log: options.log,
    ...(options.sleep ? { sleep: options.sleep } : {}),
  });
  return { sent, messages };
}
