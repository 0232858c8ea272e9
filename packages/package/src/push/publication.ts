import type { Target } from "@pkg/oci";
import pLimit from "p-limit";
import { type PlatformKey, platformKeyFromOci } from "../platform/index.js";
import {
  checkPackageTag,
  compareVersions,
  existingVersions,
  parseVersion,
  planCascade,
  publicationOfTag,
  seriesTag,
  versionRecordTags,
  withoutBuild,
} from "../version/index.js";
import { asImageIndex } from "./index-merge.js";

const READ_CONCURRENCY = 8;

export type Publication = ReturnType<typeof publicationOfTag>;

/**
 * What the cascade needs to know of the named tag; checked before anything is uploaded: a tag
 * reserved for the tools' own documents (`__pkg.*`) is refused whether or not it cascades.
 */
export function cascadePublication(tag: string, cascade: boolean): Publication | undefined {
  checkPackageTag(tag);
  return cascade ? publicationOfTag(tag) : undefined;
}

/**
 * The tags a push of each platform writes, the named tag first. Without the cascade that is the
 * named tag alone; with it, the exact and rolling tags the cascade rule lets that platform take,
 * judged against the versions the repository already holds (read once for all the platforms).
 */
export async function planPublication(
  target: Target,
  tag: string,
  platforms: readonly PlatformKey[],
  publication: Publication | undefined,
  keepLatest = false,
): Promise<string[][]> {
  if (!publication) return platforms.map(() => [tag]);
  const latest = seriesTag([], publication.variant);
  const existing = await newerVersionsWithPlatforms(target, publication.version, publication.variant);
  return platforms.map((platform) => {
    const writes = planCascade({ ...publication, platforms: [platform], existing, cascade: true });
    const planned = [
      tag,
      ...writes.map((w) => w.tag).filter((t) => t !== tag && !(keepLatest && t === latest)),
    ];
    // the version and variant grammar keeps rolling tags out of __pkg.*: checked all the same
    for (const each of planned) checkPackageTag(each);
    return planned;
  });
}

/**
 * Only versions newer than the one published can stand in a rolling tag's way, so only their
 * tags are read: a new release reads a handful of indexes, not the whole history.
 */
async function newerVersionsWithPlatforms(
  target: Target,
  published: Publication["version"],
  variant: string | undefined,
): Promise<Map<string, Set<string>>> {
  const base = withoutBuild(published);
  const records = new Map(
    [...versionRecordTags(await target.listTags(), variant)].filter(
      ([text]) => compareVersions(parseVersion(text), base) > 0,
    ),
  );
  const limit = pLimit(READ_CONCURRENCY);
  const platformsByTag = new Map<string, string[]>();
  await Promise.all(
    [...records.values()].flat().map((recordTag) =>
      limit(async () => {
        const stored = await target.fetchManifest(recordTag);
        const index = stored ? asImageIndex(stored.bytes, `${target.displayName}:${recordTag}`) : undefined;
        if (!index) return;
        const keys = index.manifests.flatMap((m) => {
          const key = m.platform ? platformKeyFromOci(m.platform) : undefined;
          return key ? [key.key] : [];
        });
        platformsByTag.set(recordTag, keys);
      }),
    ),
  );
  return existingVersions(records, platformsByTag);
}
