import {
  formatVersion,
  isPrerelease,
  matchVersion,
  parseTag,
  type TagInfo,
  type Version,
  withoutBuild,
} from "@pkg/package";

interface Records {
  version: Version;
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
  const releases = [...records.values()].map((r) => r.version).filter((v) => !isPrerelease(v));
  const reads = new Map<string, string[]>();
  for (const text of wanted) {
    const key = versionKey(text);
    const record = key === undefined ? undefined : records.get(key);
    if (!record) continue;
    const extended =
      !isPrerelease(record.version) && releases.some((other) => extends_(other, record.version));
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
  const releases = [...records.values()].map((r) => r.version).filter((v) => !isPrerelease(v));
  const untagged = new Set<string>();
  for (const text of wanted) {
    const key = versionKey(text);
    const record = key === undefined ? undefined : records.get(key);
    if (!record || record.exact !== undefined || record.builds.length === 0) continue;
    if (!isPrerelease(record.version) && releases.some((other) => extends_(other, record.version))) continue;
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

/** The text a version is recorded under in tags, or undefined when it is not a version of the tag grammar. */
export function versionKey(text: string): string | undefined {
  const version = matchVersion(text);
  return typeof version === "string" ? undefined : formatVersion(withoutBuild(version));
}

type RecordTagInfo = Extract<TagInfo, { kind: "primary" | "exact" | "rolling" }> & { version: Version };

/** The tag read as a version record (primary, exact, or a series read as a version), else undefined. */
function recordTagInfo(tag: string): RecordTagInfo | undefined {
  const info = parseTag(tag);
  if (info.kind !== "primary" && info.kind !== "exact" && info.kind !== "rolling") return undefined;
  return info.version === undefined ? undefined : { ...info, version: info.version };
}

/** Whether `recordTagsToRead` may ever name the tag, for some variant and wanted version. */
export function isRecordTag(tag: string): boolean {
  return recordTagInfo(tag) !== undefined;
}

function groupRecords(tags: Iterable<string>, variant: string | undefined): Map<string, Records> {
  const records = new Map<string, Records>();
  for (const tag of tags) {
    const info = recordTagInfo(tag);
    if (info === undefined || info.variant !== variant) continue;
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
