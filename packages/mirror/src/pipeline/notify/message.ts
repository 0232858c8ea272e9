import type {
  FailureReason,
  RunAnnounce,
  RunSummary,
  RunVersion,
  RunVersionStatus,
} from "../documents/run-summary.js";
import { clipLines, clipText } from "./clip.js";

/**
 * The chat messages a run summary comes to (a Discord-style webhook body each), built without
 * any I/O. One message per version the run published or failed, oldest first, each with one
 * embed; none when nothing happened. See `buildChatMessages`.
 */

export const CHAT_COLOR = { green: 0x2ecc71, yellow: 0xf1c40f, red: 0xe74c3c } as const;

/** The service's caps; the description is held well under its own so that an embed stays within 6,000. */
export const CHAT_LIMITS = { title: 256, description: 2048, fieldName: 256, fieldValue: 1024 } as const;

/** The longest piece of free text (a failure message, a reason) on one row. */
const MAX_DETAIL = 300;

export interface ChatField {
  name: string;
  value: string;
  inline: boolean;
}

export interface ChatEmbed {
  title: string;
  /** The CI run, when the summary knows it: the title links there. */
  url?: string;
  color: number;
  description?: string;
  fields: ChatField[];
}

export interface ChatMessage {
  /** `<@ID>`: only on a partial or failed version, and only with a user to mention. */
  content?: string;
  embeds: [ChatEmbed];
  /** Nothing is parsed from the text; at most the one user named is pinged. */
  allowed_mentions: { parse: []; users?: [string] };
}

export interface ChatMessageOptions {
  /** The user to mention on partial and failed versions (17 to 20 digits). */
  userId?: string | undefined;
}

export const CHIP = { pushed: "🟢", failed: "🔴", missing: "🚫", excluded: "🔒", neutral: "⚪" } as const;

type ReportedStatus = Exclude<RunVersionStatus, "skipped_existing">;

const VERSION_COLOR: Record<ReportedStatus, number> = {
  published: CHAT_COLOR.green,
  partial: CHAT_COLOR.yellow,
  failed: CHAT_COLOR.red,
};

/** What a failed platform's row says, and whether its artefact never arrived (🚫) or it failed (🔴). */
const FAILURE_ROW: Record<FailureReason, { missing: boolean; words: string }> = {
  test_failed: { missing: false, words: "test failed" },
  push_error: { missing: false, words: "push failed" },
  refused: { missing: false, words: "refused" },
  missing_bundle: { missing: true, words: "bundle never arrived" },
  missing_junit: { missing: true, words: "JUnit never arrived" },
  no_test_leg: { missing: true, words: "no test leg covers it" },
};

/** Announce outcomes that must be told even when no version was published or failed. */
const ANNOUNCE_PROBLEMS = new Set<RunAnnounce["status"]>(["failed", "interrupted", "skipped_no_credential"]);

/** Free text as it may appear in a row: one line, markdown characters escaped, length bounded. */
export function inlineText(text: string, max = MAX_DETAIL): string {
  const line = text.replace(/\s+/g, " ").trim();
  return clipText(line, max).replace(/[\\`*_~|>[\]]/g, "\\$&");
}

/** A platform key (or container id) as code. */
function code(text: string): string {
  return `\`${text.replace(/[`\s]+/g, "")}\``;
}

/** The URL if it is a well-formed http(s) one, for a link the service accepts; else undefined. */
function httpUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return undefined;
    // a parenthesis would end a markdown link early
    return parsed.href.replace(/\(/g, "%28").replace(/\)/g, "%29");
  } catch {
    return undefined;
  }
}

/** `[text](url)` for an http(s) URL; the text alone for anything else. */
function link(text: string, url: string | undefined): string {
  const href = httpUrl(url);
  return href === undefined ? text : `[${text}](${href})`;
}

function platformRows(version: RunVersion, pushJobUrl: string | undefined): string[] {
  const rows: Array<{ platform: string; line: string }> = [];
  for (const platform of version.platforms_pushed) {
    rows.push({ platform, line: `${CHIP.pushed} ${code(platform)} ${link("pushed", pushJobUrl)}` });
  }
  for (const failure of version.platforms_failed) {
    const { missing, words } = FAILURE_ROW[failure.reason];
    const chip = missing ? CHIP.missing : CHIP.failed;
    const detail = failure.message.trim() === "" ? "" : `: ${inlineText(failure.message)}`;
    rows.push({
      platform: failure.platform,
      line: `${chip} ${code(failure.platform)} ${link(words, failure.job_url)}${detail}`,
    });
  }
  for (const excluded of version.platforms_excluded) {
    const reason = excluded.reason?.trim() ? `: ${inlineText(excluded.reason)}` : "";
    rows.push({
      platform: excluded.platform,
      line: `${CHIP.excluded} ${code(excluded.platform)} excluded${reason}`,
    });
  }
  // by platform key; a platform's own rows keep their order (pushed, failed, excluded)
  return rows
    .map((row, i) => ({ ...row, i }))
    .sort((a, b) => (a.platform < b.platform ? -1 : a.platform > b.platform ? 1 : a.i - b.i))
    .map((row) => row.line);
}

function testFailureLines(version: RunVersion): string[] {
  return version.test_failures.map(
    (failure) =>
      `${code(failure.platform)} · ${code(failure.container)} · **${inlineText(failure.test, 100)}**: ${inlineText(failure.message)}`,
  );
}

function description(version: RunVersion, status: ReportedStatus): string {
  const tags = version.cascade_tags_written.map(code).join(", ");
  const written = tags === "" ? "" : `Tags written: ${tags}`;
  switch (status) {
    case "published":
      return written;
    case "partial":
      return `${written}${written ? "\n" : ""}Exact tag only: rolling tags wait until every platform is green.`;
    case "failed":
      return "Nothing was pushed for this version.";
  }
}

/** The Index row: the announce outcome, so that a skipped, failed or interrupted announce never reads as success. */
export function indexRow(announce: RunAnnounce): string {
  const pkg = code(announce.package);
  switch (announce.status) {
    case "announced": {
      const count = announce.tags?.length ?? 0;
      const what = count === 0 ? "index entry updated" : `${count} tag${count === 1 ? "" : "s"} announced`;
      const request = announce.request_url ? ` (${link("request", announce.request_url)})` : "";
      return `${CHIP.pushed} ${pkg}: ${what}${request}`;
    }
    case "nothing_to_announce":
      return `${CHIP.neutral} ${pkg}: nothing new to announce`;
    case "skipped_no_credential":
      return `${CHIP.missing} ${pkg}: **not announced**: the push job had no announce credential, so the index does not know this run's tags`;
    case "failed":
      return `${CHIP.failed} ${pkg}: **announce failed**: ${inlineText(announce.error ?? "no detail recorded")}`;
    case "interrupted":
      return `${CHIP.failed} ${pkg}: **announce interrupted**: the run stopped during the call; the index may not know this run's tags`;
  }
}

function field(name: string, lines: readonly string[]): ChatField {
  return {
    name: clipText(name, CHAT_LIMITS.fieldName),
    value: clipLines(lines, CHAT_LIMITS.fieldValue),
    inline: false,
  };
}

function embed(parts: {
  title: string;
  url: string | undefined;
  color: number;
  description?: string;
  fields: ChatField[];
}): ChatEmbed {
  const description = parts.description ? clipText(parts.description, CHAT_LIMITS.description) : "";
  return {
    title: clipText(parts.title, CHAT_LIMITS.title),
    ...(parts.url === undefined ? {} : { url: parts.url }),
    color: parts.color,
    ...(description === "" ? {} : { description }),
    fields: parts.fields,
  };
}

function versionMessage(
  summary: RunSummary,
  version: RunVersion & { status: ReportedStatus },
  options: ChatMessageOptions,
  withIndex: boolean,
): ChatMessage {
  const rows = platformRows(version, summary.push_job_url);
  const fields = [field("Platforms", rows.length > 0 ? rows : ["no platform reported"])];
  const tests = testFailureLines(version);
  if (tests.length > 0) fields.push(field("Failed tests", tests));
  if (withIndex && summary.announce) fields.push(field("Index", [indexRow(summary.announce)]));
  const mention = version.status !== "published" && options.userId !== undefined;
  return {
    ...(mention ? { content: `<@${options.userId}>` } : {}),
    embeds: [
      embed({
        title: `${summary.target}: ${version.version} ${version.status}`,
        url: httpUrl(summary.run_url),
        color: VERSION_COLOR[version.status],
        description: description(version, version.status),
        fields,
      }),
    ],
    allowed_mentions: mention ? { parse: [], users: [options.userId as string] } : { parse: [] },
  };
}

/** The message for an announce problem in a run that published and failed nothing. */
function announceMessage(summary: RunSummary, announce: RunAnnounce): ChatMessage {
  const word = announce.status === "skipped_no_credential" ? "skipped" : announce.status;
  return {
    embeds: [
      embed({
        title: `${summary.target}: index announce ${word}`,
        url: httpUrl(summary.run_url),
        color: announce.status === "skipped_no_credential" ? CHAT_COLOR.yellow : CHAT_COLOR.red,
        fields: [field("Index", [indexRow(announce)])],
      }),
    ],
    allowed_mentions: { parse: [] },
  };
}

const isReported = (version: RunVersion): version is RunVersion & { status: ReportedStatus } =>
  version.status !== "skipped_existing";

/**
 * The messages for a run summary. One per version published, partial or failed (oldest first),
 * each with exactly one embed: green, yellow or red by the version's status; the title
 * `<target>: <version> <status>` linking to the run; a Platforms row per platform with its chip;
 * the failed tests named; the Index row (the announce outcome) on the first message. A version
 * that already existed gets no message. A run with nothing published or failed is silent (no
 * message) unless its announce failed, was interrupted or was skipped for want of a credential:
 * that alone is told, in one message of its own. The user is mentioned on partial and failed
 * versions only, and `allowed_mentions` lets nothing else ping.
 */
export function buildChatMessages(summary: RunSummary, options: ChatMessageOptions = {}): ChatMessage[] {
  const reported = summary.versions.filter(isReported);
  const announce = summary.announce;
  if (reported.length === 0) {
    return announce && ANNOUNCE_PROBLEMS.has(announce.status) ? [announceMessage(summary, announce)] : [];
  }
  return reported.map((version, i) => versionMessage(summary, version, options, i === 0));
}
