import { ExitCode, PkgError } from "@pkg/common";
import { type PlatformKey, parsePlatformKey } from "../platform/index.js";
import { compareVersions } from "./compare.js";
import { formatVersion, isPrerelease, parseVersion, type Version, withoutBuild } from "./grammar.js";
import { exactTag, parseTag, seriesTag, versionTag } from "./tags.js";

/**
 * The cascade rule. Every tag but the primary one stands for a set of versions of one variant,
 * and per platform it points at the newest version of that set that carries the platform:
 * - the exact tag `1.2.3` and the rolling tags `1.2`, `1` stand for the releases whose numeric
 *   components start with theirs, as written (`1.2` holds `1.2`, `1.2.0`, `1.2.7`, `1.2.3.4`;
 *   `2024.01` holds `2024.01.15`, not `2024.1.16`);
 * - `latest`, or a non-default variant's name, stands for every release of the variant;
 * - a pre-release's exact tag `1.2.3-rc1` stands for that pre-release alone; pre-releases belong
 *   to no other set, so they never move `1.2.3`, `1.2`, `1` or `latest`.
 * Publishing version V for platform P therefore writes tag T for P only when no version newer
 * than V in T's set already carries P. The final state is the same whatever order versions and
 * platforms are published in (and backfilling an old version never steals a tag), because
 * whichever order they come in, the newest version of each set is the last to write.
 * The rule needs to know which versions exist, not which build a tag names, so it holds alike
 * for `datetime`, `date` and `none` primary tags.
 */
export interface CascadeRequest {
  /**
   * The build being published: its version with the build suffix of its primary tag
   * (`1.2.3_20250101120000`, as `parseTag` reads it), or without one for `build_timestamp: none`.
   */
  version: Version;
  /** Non-default variant name; absent for the default variant (unprefixed tags). */
  variant?: string;
  /** The platforms of the version this publication pushes. */
  platforms: readonly PlatformKey[];
  /**
   * The versions of the same variant the repository already holds (their text without build
   * suffix) and the platform keys each carries; `existingVersions` derives it from the tags.
   */
  existing: ReadonlyMap<string, Iterable<string>>;
  /**
   * Move rolling tags; false publishes the primary and exact tags only (`cascade: false` in the
   * spec, and every platform of a version that failed on another platform).
   */
  cascade: boolean;
}

export type TagRole = "primary" | "exact" | "rolling";

export interface TagWrite {
  tag: string;
  role: TagRole;
  /** Canonical keys of the platforms of this publication the tag takes, sorted. */
  platforms: string[];
}

/**
 * The tags to write for one publication, primary first, then most specific to least, each with
 * the platforms it takes (a tag that takes none is left out). A build without suffix
 * (`build_timestamp: none`) has no primary tag of its own: its bare tag is the exact tag and
 * follows the exact tag's rule.
 */
export function planCascade(request: CascadeRequest): TagWrite[] {
  const { variant } = request;
  const version = withoutBuild(request.version);
  const platforms = [...new Set(request.platforms.map((p) => p.key))].sort();
  const others = [...request.existing].map(([text, keys]) => ({
    version: parseVersion(text),
    platforms: new Set([...keys].map((key) => parsePlatformKey(key, ExitCode.Data).key)),
  }));

  const writes: TagWrite[] = [];
  if (request.version.build !== undefined) {
    writes.push({ tag: versionTag(request.version, variant), role: "primary", platforms });
  }
  for (const candidate of candidateTags(version, variant, request.cascade)) {
    const taken = platforms.filter(
      (platform) =>
        !others.some(
          (other) =>
            candidate.includes(other.version) &&
            other.platforms.has(platform) &&
            compareVersions(other.version, version) > 0,
        ),
    );
    if (taken.length > 0) writes.push({ tag: candidate.tag, role: candidate.role, platforms: taken });
  }
  return writes;
}

/**
 * The version and variant of the tag a push names (`-i <repository>:<tag>`), for `planCascade`:
 * a primary tag, or a bare version tag under `build_timestamp: none`. Any other tag cannot take
 * part in the cascade (exit 64).
 */
export function publicationOfTag(tag: string): { version: Version; variant?: string } {
  const info = parseTag(tag);
  if (
    (info.kind === "primary" || info.kind === "exact" || info.kind === "rolling") &&
    info.version !== undefined
  ) {
    return info.variant === undefined
      ? { version: info.version }
      : { version: info.version, variant: info.variant };
  }
  throw new PkgError(
    ExitCode.Usage,
    `tag ${tag} names no version: the cascade needs <version>_<build> or <version> (with an optional <variant>- prefix)`,
  );
}

/**
 * What every exact and rolling tag of a variant should hold, per platform, given the versions the
 * repository holds: the state the cascade converges to, for checking and repairing a repository
 * after failed or partial pushes. Tag -> platform key -> version text.
 */
export function foldCascade(
  existing: ReadonlyMap<string, Iterable<string>>,
  variant?: string,
): Map<string, Map<string, string>> {
  const newest = new Map<string, Map<string, Version>>();
  for (const [text, keys] of existing) {
    const version = parseVersion(text);
    for (const candidate of candidateTags(version, variant, true)) {
      const entries = newest.get(candidate.tag) ?? new Map<string, Version>();
      newest.set(candidate.tag, entries);
      for (const key of keys) {
        const platform = parsePlatformKey(key, ExitCode.Data).key;
        const held = entries.get(platform);
        if (held === undefined || compareVersions(version, held) > 0) entries.set(platform, version);
      }
    }
  }
  return new Map(
    [...newest].map(([tag, entries]) => [tag, new Map([...entries].map(([p, v]) => [p, formatVersion(v)]))]),
  );
}

interface Candidate {
  tag: string;
  role: "exact" | "rolling";
  /** Whether a version belongs to the set the tag stands for. */
  includes(other: Version): boolean;
}

function candidateTags(version: Version, variant: string | undefined, cascade: boolean): Candidate[] {
  if (isPrerelease(version)) {
    const text = formatVersion(version);
    return [
      { tag: exactTag(version, variant), role: "exact", includes: (other) => formatVersion(other) === text },
    ];
  }
  const prefixes: (readonly string[])[] = [version.release];
  for (let length = version.release.length - 1; cascade && length >= 0; length--) {
    prefixes.push(version.release.slice(0, length));
  }
  return prefixes.map((prefix, i) => ({
    tag: i === 0 ? exactTag(version, variant) : seriesTag(prefix, variant),
    role: i === 0 ? "exact" : "rolling",
    includes: (other) =>
      !isPrerelease(other) && prefix.every((component, j) => other.release[j] === component),
  }));
}
