import { setTimeout as delay } from "node:timers/promises";
import { ExitCode, type Logger, PkgError } from "@pkg/common";
import {
  displayUrl,
  type HttpClient,
  type HttpResponse,
  HttpTransportError,
  parseRetryAfter,
} from "@pkg/net";
import { clipText } from "./clip.js";
import type { ChatMessage } from "./message.js";

/** The pause between two messages (none before the first): the service allows about 5 per 2 s. */
export const PACE_MS = 750;
/** Retries of a message answered 429 (4 attempts in all). */
export const RATE_LIMIT_RETRIES = 3;
/** The longest wait a 429 may ask for; a longer `retry_after` is cut to this. */
export const MAX_RATE_LIMIT_WAIT_MS = 60_000;
/** The wait after a 429 that says nothing of how long. */
const DEFAULT_RATE_LIMIT_WAIT_MS = 1000;
/** Webhook answers are small; a longer one is cut off (exit 69). */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface PostOptions {
  /** The one HTTP client (proxy variables, extra CAs, timeouts). */
  http: HttpClient;
  /** The webhook URL. A secret (its token sits in the path): it never appears in a message. */
  hookUrl: string;
  /** The CI secret holding the URL (`notify.chat.webhook_secret`), named when the webhook is rejected. */
  secretName?: string | undefined;
  log: Logger;
  /** Waits: the pacing and the 429 retries (tests record the waits instead). */
  sleep?: (ms: number) => Promise<void>;
  /** The clock a `Retry-After` date is read against (default Date.now). */
  now?: () => number;
}

/** Every form in which the webhook URL (or its token) could show up in a text, longest first. */
export function webhookForms(hookUrl: string): string[] {
  const forms = new Set<string>([hookUrl]);
  try {
    const url = new URL(hookUrl);
    forms.add(url.href);
    forms.add(displayUrl(url));
    forms.add(`${url.host}${url.pathname}`);
    if (url.pathname.length > 1) forms.add(url.pathname);
    for (const segment of url.pathname.split("/")) if (segment.length >= 16) forms.add(segment);
    if (url.search.length > 1) forms.add(url.search);
  } catch {
    // not a URL: the text as given is all there is to hide
  }
  return [...forms].filter((form) => form.length > 0).sort((a, b) => b.length - a.length);
}

/** Replaces every form of the webhook URL in a text with `<webhook>`. */
export function webhookScrubber(hookUrl: string): (text: string) => string {
  const forms = webhookForms(hookUrl);
  return (text) => forms.reduce((out, form) => out.split(form).join("<webhook>"), text);
}

function header(answer: HttpResponse, name: string): string | undefined {
  const value = answer.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function answerJson(answer: HttpResponse): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(answer.body.toString("utf8"));
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

const clampWait = (ms: number) => Math.min(Math.max(Math.ceil(ms), 0), MAX_RATE_LIMIT_WAIT_MS);

/**
 * How long a 429 asks to wait: the body's `retry_after` (seconds, fractions allowed), else the
 * `Retry-After` header (seconds or an HTTP date), else 1 s; clamped to [0, 60 s].
 */
export function rateLimitWaitMs(answer: HttpResponse, now: number): number {
  const fromBody = answerJson(answer)?.retry_after;
  if (typeof fromBody === "number" && Number.isFinite(fromBody)) return clampWait(fromBody * 1000);
  const asked = header(answer, "retry-after")?.trim();
  if (asked !== undefined && /^[0-9]+(\.[0-9]+)?$/.test(asked)) return clampWait(Number(asked) * 1000);
  return parseRetryAfter(asked, now, { maxMs: MAX_RATE_LIMIT_WAIT_MS }) ?? DEFAULT_RATE_LIMIT_WAIT_MS;
}

/** The service's own word on a refusal (its JSON `message`), one short line; empty when none. */
function serviceMessage(answer: HttpResponse): string {
  const message = answerJson(answer)?.message;
  return typeof message === "string" ? ` (${clipText(message.replace(/\s+/g, " ").trim(), 200)})` : "";
}

/** The error for an answer that is neither 2xx nor 429. */
function refusal(answer: HttpResponse, secretName: string | undefined): PkgError {
  const status = answer.status;
  if (status === 401 || status === 403) {
    const secret = secretName ?? "whose value is in PKG_MIRROR_CHAT_HOOK";
    return new PkgError(
      ExitCode.Permission,
      `the webhook was rejected (HTTP ${status}): check the secret ${secret} (deleted or rotated webhook?)`,
    );
  }
  if (status >= 500) {
    return new PkgError(
      ExitCode.Unavailable,
      `the chat service answered HTTP ${status}: unavailable, try again later`,
    );
  }
  return new PkgError(
    ExitCode.Unavailable,
    `the webhook answered HTTP ${status}${serviceMessage(answer)}: unexpected answer`,
  );
}

/** A request that got no answer, told without the URL: the network reason, or the client's own refusal. */
function unreachable(error: unknown): PkgError {
  if (error instanceof HttpTransportError) {
    const reason = error.message.startsWith(`${error.url}: `)
      ? error.message.slice(error.url.length + 2)
      : error.message;
    return new PkgError(ExitCode.Unavailable, `the webhook could not be reached: ${reason}`);
  }
  if (error instanceof PkgError)
    return new PkgError(error.exitCode, `the webhook request failed: ${error.message}`);
  const reason = error instanceof Error ? error.message : String(error);
  return new PkgError(ExitCode.Unavailable, `the webhook could not be reached: ${reason}`);
}

/**
 * Posts one message: 2xx is done; 429 waits as asked and tries again, at most
 * RATE_LIMIT_RETRIES times; anything else throws (401/403 exit 77, the rest 69).
 */
async function postOne(
  message: ChatMessage,
  options: PostOptions,
  context: { sleep: (ms: number) => Promise<void>; log: (line: string) => void; what: string },
): Promise<void> {
  const { sleep, log, what } = context;
  for (let retry = 0; ; retry++) {
    let answer: HttpResponse;
    try {
      answer = await options.http.fetch({
        url: options.hookUrl,
        method: "POST",
        body: { json: message },
        auth: "none",
        redirect: "manual",
        maxBytes: MAX_ANSWER_BYTES,
      });
    } catch (error) {
      throw unreachable(error);
    }
    if (answer.status >= 200 && answer.status < 300) return;
    if (answer.status !== 429) throw refusal(answer, options.secretName);
    const scope = header(answer, "x-ratelimit-scope");
    if (retry >= RATE_LIMIT_RETRIES) {
      throw new PkgError(
        ExitCode.Unavailable,
        `the webhook is rate limited (HTTP 429) after ${RATE_LIMIT_RETRIES} retries${scope ? ` (scope: ${scope})` : ""}`,
      );
    }
    const waitMs = rateLimitWaitMs(answer, (options.now ?? Date.now)());
    log(
      `${what}: rate limited (HTTP 429${scope ? `, scope ${scope}` : ""}); retry ${retry + 1} of ${RATE_LIMIT_RETRIES} in ${(waitMs / 1000).toFixed(2)} s`,
    );
    await sleep(waitMs);
  }
}

/**
 * Posts the messages in order through the one HTTP client, PACE_MS apart (none before the
 * first), logging one line per message sent. A failure names the message and how many went
 * before it; no message, log line or error ever carries the webhook URL.
 */
export async function postChatMessages(
  messages: readonly ChatMessage[],
  options: PostOptions,
): Promise<number> {
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  const scrub = webhookScrubber(options.hookUrl);
  const log = (line: string) => options.log.info(scrub(line));
  for (const [i, message] of messages.entries()) {
    const what = `message ${i + 1} of ${messages.length} (${message.embeds[0].title})`;
    if (i > 0) await sleep(PACE_MS);
    try {
      await postOne(message, options, { sleep, log, what });
    } catch (error) {
      const failure = error instanceof PkgError ? error : unreachable(error);
      const before = i === 0 ? "" : `; ${i} sent before it`;
      throw new PkgError(failure.exitCode, scrub(`${what}: ${failure.message}${before}`));
    }
    log(`sent ${what}`);
  }
  return messages.length;
}
