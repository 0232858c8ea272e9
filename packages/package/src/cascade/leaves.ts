import { ExitCode, PkgError } from "@pkg/common";
import { formatVersion, isPrerelease, type Version, withoutBuild } from "../version/grammar.js";
import { exactTag, parseTag } from "../version/tags.js";

/**
 * A leaf version of one variant: a version the repository holds its own manifests for, and the
 * tags holding them (oldest first). Every other version-shaped tag is an alias the cascade derives
 * from the leaves.
 */
export interface LeafVersion {
  /** The version without build suffix (`1.2.3`). */
  version: string;
  parsed: Version;
  /** The version's own tags, oldest first: its primary tags, or its bare tag (`build_timestamp: none`). */
  tags: string[];
}

interface Records {
  version: Version;
  builds: string[];
  bare?: { tag: string; exact: boolean };
}

/**
 * The leaf versions of one variant (`undefined`: the default, unprefixed one), keyed by version
 * text. The rule:
 * 1. a version's primary tags (`1.2.3_20250101120000`) are its leaves;
 * 2. a version without any (published with `build_timestamp: none`) has its bare tag as its leaf
 *    when that tag reads as an exact version (three or more components, or a pre-release);
 * 3. a one- or two-component bare tag (`1.2`, `1`) is a leaf only in a variant without any primary
 *    tag (a `build_timestamp: none` repository) and when no longer release extends it; otherwise
 *    it is a rolling alias (a two-component version published with build tags has them as leaves).
 * A leaf tag is never an alias to repair: it is a version's own record.
 */
export function leafVersions(tags: Iterable<string>, variant: string | undefined): Map<string, LeafVersion> {
  const records = new Map<string, Records>();
  let anyBuild = false;
  for (const tag of tags) {
    const info = parseTag(tag);
    if (info.kind !== "primary" && info.kind !== "exact" && info.kind !== "rolling") continue;
    if (info.variant !== variant || info.version === undefined) continue;
    const version = withoutBuild(info.version);
    const text = formatVersion(version);
    const record = records.get(text) ?? { version, builds: [] };
    records.set(text, record);
    if (info.kind === "primary") {
      record.builds.push(tag);
      anyBuild = true;
    } else record.bare = { tag, exact: info.kind === "exact" };
  }
  const releases = [...records.values()].map((r) => r.version).filter((v) => !isPrerelease(v));
  const leaves = new Map<string, LeafVersion>();
  for (const [text, record] of records) {
    let own: string[] | undefined;
    if (record.builds.length > 0) own = [...record.builds].sort();
    else if (record.bare?.exact) own = [record.bare.tag];
    else if (record.bare && !anyBuild && !releases.some((other) => extendsRelease(other, record.version)))
      own = [record.bare.tag];
    if (own) leaves.set(text, { version: text, parsed: record.version, tags: own });
  }
  return leaves;
}

/** Whether `longer` is a release whose leading components are all of `version`'s, and more. */
export function extendsRelease(longer: Version, version: Version): boolean {
  return (
    !isPrerelease(version) &&
    longer.release.length > version.release.length &&
    version.release.every((component, i) => longer.release[i] === component)
  );
}

/** The variants tags of the version grammar name (`undefined` for the default variant), default first. */
export function tagVariants(tags: Iterable<string>): Array<string | undefined> {
  const named = new Set<string>();
  let unprefixed = false;
  for (const tag of tags) {
    const info = parseTag(tag);
    if (info.kind !== "primary" && info.kind !== "exact" && info.kind !== "rolling") continue;
    if (info.variant === undefined) unprefixed = true;
    else named.add(info.variant);
  }
  return [...(unprefixed ? [undefined] : []), ...[...named].sort()];
}

/**
 * The exact tag naming a leaf version (`1.1.0`, `edge-1.1.0`), from that tag or one of its primary
 * tags (`1.1.0_20250101120000`): how a caller names a version to leave out of the fold. Text that
 * names no version (`latest`, a variant's name, a digest) is a usage error (exit 64).
 */
export function leafVersionTag(text: string): string {
  const info = parseTag(text);
  if ((info.kind === "primary" || info.kind === "exact" || info.kind === "rolling") && info.version)
    return exactTag(info.version, info.variant);
  throw new PkgError(
    ExitCode.Usage,
    `${JSON.stringify(text)} names no version: expected X.Y.Z, <variant>-X.Y.Z or a build tag X.Y.Z_<build>`,
  );
}
