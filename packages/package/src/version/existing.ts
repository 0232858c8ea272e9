import { formatVersion, withoutBuild } from "./grammar.js";
import { parseTag } from "./tags.js";

/**
 * Which tags to read to learn the versions of a variant a repository holds and their platforms:
 * version text -> tags. A version's exact tag is enough when present (per platform it holds that
 * version or a newer one extending it, and either way the version's set membership is what the
 * cascade needs); only a version without one is read from its primary (build) tags. That keeps
 * the reads to about one per version, not one per build.
 *
 * A two- or one-component tag (`1.2`, `1`) is read as the exact tag of that version, because
 * upstreams publish such versions; where the version never existed, the tag stands for a newer
 * version of its own set, so the phantom adds no blocker that version does not add already.
 */
export function versionRecordTags(tags: Iterable<string>, variant?: string): Map<string, string[]> {
  const exact = new Map<string, string>();
  const builds = new Map<string, string[]>();
  for (const tag of tags) {
    const info = parseTag(tag);
    if (info.kind !== "primary" && info.kind !== "exact" && info.kind !== "rolling") continue;
    if (info.variant !== variant || info.version === undefined) continue;
    const text = formatVersion(withoutBuild(info.version));
    if (info.kind === "primary") builds.set(text, [...(builds.get(text) ?? []), tag]);
    else exact.set(text, tag);
  }
  const records = new Map<string, string[]>();
  for (const text of new Set([...exact.keys(), ...builds.keys()])) {
    const tag = exact.get(text);
    records.set(text, tag === undefined ? (builds.get(text) ?? []).sort() : [tag]);
  }
  return records;
}

/**
 * The `existing` map of `planCascade`: each version with the union of the platform keys found in
 * its record tags' indexes (`platformsByTag`: tag -> keys of the index's entries; a tag missing
 * there, deleted since it was listed, contributes nothing).
 */
export function existingVersions(
  records: ReadonlyMap<string, readonly string[]>,
  platformsByTag: ReadonlyMap<string, Iterable<string>>,
): Map<string, Set<string>> {
  const existing = new Map<string, Set<string>>();
  for (const [version, tags] of records) {
    const platforms = new Set<string>();
    for (const tag of tags) for (const key of platformsByTag.get(tag) ?? []) platforms.add(key);
    existing.set(version, platforms);
  }
  return existing;
}
