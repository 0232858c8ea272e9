import { ExitCode, type Logger, PkgError, silentLogger } from "@pkg/common";
import type { Platform, Target } from "@pkg/oci";
import { platformKeyFromOci } from "@pkg/package";
import pLimit from "p-limit";
import { recordTagsToRead } from "./record-tags.js";

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

export interface PublishedState {
  /** One entry per query, in query order. */
  sets: PublishedVersions[];
  /** Tags the repository holds (one listing). */
  tagCount: number;
  /** Index reads made. */
  indexReads: number;
}

/**
 * What the target already holds for the versions asked about: one tag listing, then only the
 * indexes of the asked versions that have a tag (see `recordTagsToRead`), `READ_CONCURRENCY` at
 * a time. A version of the target that was not asked about costs nothing, and an asked version
 * without any tag is known unpublished from the listing alone.
 *
 * A published version's platforms live only in its own index: rolling tags (`latest`, `1.2`)
 * name, per platform, the newest version carrying it and say nothing of older ones, so reading
 * them cannot stand in for the per-version reads without reporting a missing platform as
 * published.
 */
export async function readPublished(
  target: Target,
  queries: readonly PublishedQuery[],
  options: { log?: Logger; concurrency?: number } = {},
): Promise<PublishedState> {
  const log = options.log ?? silentLogger;
  log.progress(`${target.displayName}: listing tags`);
  const tags = await target.listTags();
  const plans = queries.map((q) => recordTagsToRead(tags, q.variant, q.versions));
  const unique = [...new Set(plans.flatMap((plan) => [...plan.values()].flat()))];
  if (unique.length > 0) log.progress(`${target.displayName}: reading ${unique.length} image indexes`);
  const limit = pLimit(options.concurrency ?? READ_CONCURRENCY);
  const platformsByTag = new Map(
    await Promise.all(
      unique.map((tag) => limit(async () => [tag, await readIndexPlatforms(target, tag)] as const)),
    ),
  );
  const sets = plans.map((plan) => {
    const published: PublishedVersions = new Map();
    for (const [version, recordTags] of plan) {
      const platforms = new Set<string>();
      for (const tag of recordTags) for (const key of platformsByTag.get(tag) ?? []) platforms.add(key);
      published.set(version, platforms);
    }
    return published;
  });
  return { sets, tagCount: tags.length, indexReads: unique.length };
}

/**
 * The platform keys of the index behind `tag`: empty when the tag is gone since the listing or
 * its entries carry no platform a key can spell (such entries are not ours). A tag holding a
 * single manifest instead of an index is bad data in a package repository (exit 65).
 */
export async function readIndexPlatforms(target: Target, tag: string): Promise<string[]> {
  const stored = await target.fetchManifest(tag);
  if (!stored) return [];
  let doc: { manifests?: unknown };
  try {
    doc = JSON.parse(stored.bytes.toString("utf8")) as { manifests?: unknown };
  } catch (error) {
    throw new PkgError(ExitCode.Data, `${target.displayName}:${tag} is not JSON`, { cause: error });
  }
  if (!Array.isArray(doc.manifests)) {
    throw new PkgError(
      ExitCode.Data,
      `${target.displayName}:${tag} holds a single manifest, not an image index`,
    );
  }
  return (doc.manifests as Array<{ platform?: Platform }>).flatMap((entry) => {
    const key = entry.platform ? platformKeyFromOci(entry.platform) : undefined;
    return key ? [key.key] : [];
  });
}

/** A wanted pair against the target: `new` (version unpublished), `published`, or `missing` (a platform absent from a published version). */
export type PairState = "new" | "published" | "missing";

export function classifyPair(published: PublishedVersions, version: string, platform: string): PairState {
  const platforms = published.get(version);
  if (platforms === undefined) return "new";
  return platforms.has(platform) ? "published" : "missing";
}
