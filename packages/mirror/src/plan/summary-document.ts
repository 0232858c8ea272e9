import { ExitCode, isJsonObject, PkgError } from "@pkg/common";
import { matchPlatformKey } from "@pkg/package";

/** What one tag's image index held when pkg-mirror last wrote or read it. */
export interface IndexRecord {
  digest: string;
  /** Platform keys, sorted. */
  platforms: string[];
}

/** Version record tag -> its index, as the published summary states it. */
export type SummaryTags = Map<string, IndexRecord>;

export const SUMMARY_SCHEMA = 1;

const digestPattern = /^sha256:[0-9a-f]{64}$/;

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The summary's config blob: `{"schema":1,"tags":{"<tag>":{"digest":…,"platforms":[…]}}}`, tags
 * and platforms sorted, keys in one fixed order, so equal content always has the same digest.
 * Written by hand because an object would list integer-like tags (`1`, `2`) first.
 */
export function serializeSummary(tags: ReadonlyMap<string, IndexRecord>): Buffer {
  const entries = [...tags.keys()].sort(byCodeUnit).map((tag) => {
    const record = tags.get(tag) as IndexRecord;
    const platforms = [...new Set(record.platforms)].sort(byCodeUnit);
    return `${JSON.stringify(tag)}:${JSON.stringify({ digest: record.digest, platforms })}`;
  });
  return Buffer.from(`{"schema":${SUMMARY_SCHEMA},"tags":{${entries.join(",")}}}`, "utf8");
}

const invalid = (reason: string) => new PkgError(ExitCode.Data, reason);

/** Parses and checks a summary document; exit 65 naming the first problem. */
export function parseSummary(bytes: Buffer): SummaryTags {
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw new PkgError(ExitCode.Data, "the document is not JSON", { cause: error });
  }
  if (!isJsonObject(doc)) throw invalid("the document is not a JSON object");
  if (doc.schema !== SUMMARY_SCHEMA) throw invalid(`unsupported schema ${JSON.stringify(doc.schema)}`);
  if (!isJsonObject(doc.tags)) throw invalid('"tags" is not an object');
  const tags: SummaryTags = new Map();
  for (const [tag, entry] of Object.entries(doc.tags)) {
    if (!isJsonObject(entry) || typeof entry.digest !== "string" || !digestPattern.test(entry.digest)) {
      throw invalid(`tag ${tag}: no sha256 digest`);
    }
    if (!Array.isArray(entry.platforms)) throw invalid(`tag ${tag}: "platforms" is not an array`);
    const platforms: string[] = [];
    for (const platform of entry.platforms as unknown[]) {
      const key = typeof platform === "string" ? matchPlatformKey(platform) : "not a string";
      if (typeof key === "string" || key.key !== platform) {
        throw invalid(`tag ${tag}: ${JSON.stringify(platform)} is not a platform key`);
      }
      platforms.push(platform);
    }
    tags.set(tag, { digest: entry.digest, platforms });
  }
  return tags;
}
