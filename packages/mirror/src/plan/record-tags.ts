import {
  formatVersion,
  isPrerelease,
  matchVersion,
  parseTag,
  type TagInfo,
  type Version,
  withoutBuild,
} from "@pkg/package";
import { isPep440Only } from "./version-order.js";

interface Records {
  /** Undefined for a PEP 440 version the package grammar cannot hold (see `pep440Record`). */
  version?: Version;
  /** The version's own tag without build suffix (`1.2.3`, `1.2`, `1.2.3-rc1`). */
  exact?: string;
  /** Its primary tags (`1.2.3_20250101120000`), one per push run. */
  builds: string[];
}

/**
 * Which tags to read to learn the platforms each wanted version of one variant holds: version
 * text -> tags (their indexes' platforms are united). Versions without any tag are left out: they
 * are not published.
 *
 * - The exact tag, when present, is one read holding every platform pushed for the version.
 * - But the exact (or two-component) tag stands for every release it prefixes (`1.2.3` holds
 *   `1.2.3.4` per platform when that is newer): when such a longer release is published, the
 *   version's primary tags are read instead, so its own platforms are what is reported.
 * - Without an exact tag (pushed without the cascade), every primary tag is read: each push run
 *   wrote its own, holding the platforms of that run only.
 */
export function recordTagsToRead(
  tags: Iterable<string>,
  variant: string | undefined,
  wanted: Iterable<string>,
): Map<string, string[]> {
  const records = groupRecords(tags, variant);
  const releases = releasesOf(records);
  const reads = new Map<string, string[]>();
  for (const text of wanted) {
    const key = versionKey(text);
    const record = key === undefined ? undefined : records.get(key);
    if (!record) continue;
    const { version } = record;
    const extended =
      version !== undefined && !isPrerelease(version) && releases.some((other) => extends_(other, version));
    if (record.exact !== undefined && (!extended || record.builds.length === 0))
      reads.set(text, [record.exact]);
    else reads.set(text, [...record.builds].sort());
  }
  return reads;
}

/**
 * The wanted versions of one variant whose publication was never completed: they have primary
 * (build) tags but no exact tag, which a cascading publication writes last of all its tags (see
 * `publishTags`). Such a version was pushed while another of its platforms failed, or its run
 * was killed while tagging; once all its platforms are published it is owed its exact and rolling
 * tags, written under its newest primary tag. Only meaningful with the cascade on. A release that
 * a longer published release extends (`1.2.3` beside `1.2.3.4`) is left out: its exact tag is
 * also that release's, so its absence or presence says nothing about this version.
 */
export function untaggedVersions(
  tags: Iterable<string>,
  variant: string | undefined,
  wanted: Iterable<string>,
): Set<string> {
  const records = groupRecords(tags, variant);
  const releases = releasesOf(records);
  const untagged = new Set<string>();
  for (const text of wanted) {
    const key = versionKey(text);
    const record = key === undefined ? undefined : records.get(key);
    // a PEP 440 version is published without the cascade: it is never owed tags
    const version = record?.version;
    if (!record || version === undefined || record.exact !== undefined || record.builds.length === 0)
      continue;
    if (!isPrerelease(version) && releases.some((other) => extends_(other, version))) continue;
    untagged.add(text);
  }
  return untagged;
}

/**
 * Per wanted version with any tag, the tags holding its own manifests, oldest build first: its
 * primary tags, or its bare tag when it has none (`build_timestamp: none`). Unlike the exact tag
 * of a version that has builds, these never hold another version's manifest.
 */
export function versionOwnTags(
  tags: Iterable<string>,
  variant: string | undefined,
  wanted: Iterable<string>,
): Map<string, string[]> {
  const records = groupRecords(tags, variant);
  const own = new Map<string, string[]>();
  for (const text of wanted) {
    const key = versionKey(text);
    const record = key === undefined ? undefined : records.get(key);
    if (!record) continue;
    if (record.builds.length > 0) own.set(text, [...record.builds].sort());
    else if (record.exact !== undefined) own.set(text, [record.exact]);
  }
  return own;
}

/** The text a version is recorded under in tags, or undefined when it is not a version of the tag
 *  grammar (nor a PEP 440 version tagged as it is). */
export function versionKey(text: string): string | undefined {
  const version = matchVersion(text);
  if (typeof version !== "string") return formatVersion(withoutBuild(version));
  return isPep440Only(text) ? text : undefined;
}

/** The releases among the records (what may extend another's exact tag). */
function releasesOf(records: Map<string, Records>): Version[] {
  return [...records.values()].flatMap((r) =>
    r.version !== undefined && !isPrerelease(r.version) ? [r.version] : [],
  );
}

const BUILD_SUFFIX = /^(.+)_(\d{8}|\d{14})$/;

/** A tag of a PEP 440 version the package grammar cannot hold: a build (`2.0.post1_20250101120000`)
 *  or the bare version (`build_timestamp: none`). */
function pep440Record(tag: string): { text: string; build: boolean } | undefined {
  const match = BUILD_SUFFIX.exec(tag);
  if (match !== null && isPep440Only(match[1] as string)) return { text: match[1] as string, build: true };
  return isPep440Only(tag) ? { text: tag, build: false } : undefined;
}

type RecordTagInfo = Extract<TagInfo, { kind: "primary" | "exact" | "rolling" }> & { version: Version };

/** The tag read as a version record (primary, exact, or a series read as a version), else undefined. */
function recordTagInfo(tag: string): RecordTagInfo | undefined {
  const info = parseTag(tag);
  if (info.kind !== "primary" && info.kind !== "exact" && info.kind !== "rolling") return undefined;
  return info.version === undefined ? undefined : { ...info, version: info.version };
}

/** The versions (as `versionKey` gives them) that record tags of the default variant name. */
export function recordedVersions(tags: Iterable<string>): string[] {
  return [...groupRecords(tags, undefined).keys()];
}

/** Whether `recordTagsToRead` may ever name the tag, for some variant and wanted version. */
export function isRecordTag(tag: string): boolean {
  return recordTagInfo(tag) !== undefined || pep440Record(tag) !== undefined;
}

function groupRecords(tags: Iterable<string>, variant: string | undefined): Map<string, Records> {
  const records = new Map<string, Records>();
  for (const tag of tags) {
    const info = recordTagInfo(tag);
    if (info === undefined) {
      const pep440 = variant === undefined ? pep440Record(tag) : undefined;
      if (pep440 === undefined) continue;
      const record = records.get(pep440.text) ?? { builds: [] };
      records.set(pep440.text, record);
      if (pep440.build) record.builds.push(tag);
      else record.exact = tag;
      continue;
    }
    if (info.variant !== variant) continue;
    const version = withoutBuild(info.version);
    const text = formatVersion(version);
    const record = records.get(text) ?? { version, builds: [] };
    records.set(text, record);
    if (info.kind === "primary") record.builds.push(tag);
    else record.exact = tag;
  }
  return records;
}

/** Whether `longer` is a release that `version`'s tag also stands for: same leading components, more of them. */
function extends_(longer: Version, version: Version): boolean {
  return (
    longer.release.length > version.release.length &&
    version.release.every((component, i) => longer.release[i] === component)
  );
}
