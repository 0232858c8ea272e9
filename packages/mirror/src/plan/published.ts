import { type Logger, silentLogger } from "@pkg/common";
import type { TargetReader } from "@pkg/oci";
import { PUBLISHED_SUMMARY_TAG } from "@pkg/package";
import pLimit from "p-limit";
import { indexPlatformKeys } from "./index-platforms.js";
import { readPublishedSummary, type SummaryRead } from "./read-summary.js";
import { recordTagsToRead, untaggedVersions, versionOwnTags } from "./record-tags.js";
import type { IndexRecord } from "./summary-document.js";

/** Index reads in flight at once. */
export const READ_CONCURRENCY = 16;

/** The versions of one asset set (variant) whose published platforms a run needs. */
export interface PublishedQuery {
  /** Tag prefix; absent for the unprefixed set. */
  variant?: string;
  versions: Iterable<string>;
}

/** Version text -> platform keys published, for the versions asked about that have any tag. */
export type PublishedVersions = Map<string, Set<string>>;

/** What became of the published summary in one read: see `readPublished`. */
export type SummaryUse = "used" | "absent" | "invalid" | "ignored" | "unneeded";

export interface PublishedState {
  /** One entry per query, in query order. */
  sets: PublishedVersions[];
  /**
   * Per query, the asked versions with build tags but no exact tag (see `untaggedVersions`): with
   * the cascade on, once whole, they are owed their exact and rolling tags.
   */
  untagged: Set<string>[];
  /** Per query, each asked version's own tags, oldest first (see `versionOwnTags`). */
  ownTags: Map<string, string[]>[];
  /** Tags the repository holds (one listing). */
  tagCount: number;
  /**
   * `used`: read and valid; `absent`: the repository has none; `invalid`: unreadable or failing
   * verification (a warning was logged); `ignored`: `verifyPublished`; `unneeded`: no asked
   * version has a tag, so nothing was read at all.
   */
  summary: SummaryUse;
  /** Record tags whose platforms the summary gave. */
  summaryHits: number;
  /** Index reads made: record tags the summary did not cover (all of them without a summary). */
  indexReads: number;
  /** The summary's records when `summary` is `used`: trusted as far as the platforms are. */
  summaryTags?: ReadonlyMap<string, IndexRecord>;
}

export interface ReadPublishedOptions {
  log?: Logger;
  concurrency?: number;
  /** Ignore the published summary and read every index (something other than pkg-mirror moved tags). */
  verifyPublished?: boolean;
}

/**
 * What the target already holds for the versions asked about: one tag listing, then the platforms
 * of each asked version's record tags (see `recordTagsToRead`). A version of the target that was
 * not asked about costs nothing, and an asked version without any tag is known unpublished from
 * the listing alone.
 *
 * A published version's platforms live only in its own index: rolling tags (`latest`, `1.2`)
 * name, per platform, the newest version carrying it and say nothing of older ones, so reading
 * them cannot stand in for the per-version reads without reporting a missing platform as
 * published. The published summary (`__pkg.published`, written by sync) holds those indexes'
 * platforms in one document, so a record tag it covers costs no read; a tag it lacks (pushed
 * after it was written, or by another tool) is read, `READ_CONCURRENCY` at a time.
 *
 * The summary is trusted as far as pkg-mirror's own writes go: a push only ever adds platforms to a
 * record tag, so a summary that lags behind it under-reports (sync then pushes again, which is
 * harmless); a patch or a cascade repair, which re-point tags, takes them out of the summary before
 * it moves them (see `withdrawFromSummary`). A tool that shrinks or re-points tags makes it
 * over-report: `verifyPublished`.
 */
export async function readPublished(
  target: TargetReader,
  queries: readonly PublishedQuery[],
  options: ReadPublishedOptions = {},
): Promise<PublishedState> {
  const log = options.log ?? silentLogger;
  log.progress(`${target.displayName}: listing tags`);
  const tags = await target.listTags();
  const plans = queries.map((q) => recordTagsToRead(tags, q.variant, q.versions));
  const unique = [...new Set(plans.flatMap((plan) => [...plan.values()].flat()))];
  const { use, summary } = await summaryFor(target, tags, unique.length > 0, options);
  if (summary.status === "invalid") {
    log.warn(
      `${target.displayName}: ignoring the published summary (${summary.reason}); reading the image indexes`,
    );
  }
  const known = summary.status === "valid" ? summary.tags : new Map<string, IndexRecord>();
  const toRead = unique.filter((tag) => !known.has(tag));
  if (toRead.length > 0) log.progress(`${target.displayName}: reading ${toRead.length} image indexes`);
  const limit = pLimit(options.concurrency ?? READ_CONCURRENCY);
  const platformsByTag = new Map<string, readonly string[]>([
    ...unique.flatMap((tag) => {
      const record = known.get(tag);
      return record ? [[tag, record.platforms] as const] : [];
    }),
    ...(await Promise.all(
      toRead.map((tag) => limit(async () => [tag, await readIndexPlatforms(target, tag)] as const)),
    )),
  ]);
  const sets = plans.map((plan) => {
    const published: PublishedVersions = new Map();
    for (const [version, recordTags] of plan) {
      const platforms = new Set<string>();
      for (const tag of recordTags) for (const key of platformsByTag.get(tag) ?? []) platforms.add(key);
      published.set(version, platforms);
    }
    return published;
  });
  return {
    sets,
    untagged: queries.map((q) => untaggedVersions(tags, q.variant, q.versions)),
    ownTags: queries.map((q) => versionOwnTags(tags, q.variant, q.versions)),
    tagCount: tags.length,
    summary: use,
    summaryHits: unique.length - toRead.length,
    indexReads: toRead.length,
    ...(summary.status === "valid" ? { summaryTags: summary.tags } : {}),
  };
}

async function summaryFor(
  target: TargetReader,
  tags: readonly string[],
  needed: boolean,
  options: ReadPublishedOptions,
): Promise<{ use: SummaryUse; summary: SummaryRead }> {
  const none = { status: "absent" } as const;
  if (!needed) return { use: "unneeded", summary: none };
  if (options.verifyPublished) return { use: "ignored", summary: none };
  if (!tags.includes(PUBLISHED_SUMMARY_TAG)) return { use: "absent", summary: none };
  const summary = await readPublishedSummary(target);
  return { use: summary.status === "valid" ? "used" : summary.status, summary };
}

/**
 * The platform keys of the index behind `tag`: empty when the tag is gone since the listing or
 * its entries carry no platform a key can spell (such entries are not ours). A tag holding a
 * single manifest instead of an index is bad data in a package repository (exit 65).
 */
export async function readIndexPlatforms(target: TargetReader, tag: string): Promise<string[]> {
  const stored = await target.fetchManifest(tag);
  return stored ? indexPlatformKeys(stored.bytes, `${target.displayName}:${tag}`) : [];
}

/** A wanted pair against the target: `new` (version unpublished), `published`, or `missing` (a platform absent from a published version). */
export type PairState = "new" | "published" | "missing";

export function classifyPair(published: PublishedVersions, version: string, platform: string): PairState {
  const platforms = published.get(version);
  if (platforms === undefined) return "new";
  return platforms.has(platform) ? "published" : "missing";
}
