import { ExitCode, isJsonObject, PkgError } from "@pkg/common";
import { matchPlatformKey } from "@pkg/package";

/** What one tag's image index held when pkg-mirror last wrote or read it. */
export interface IndexRecord {
  digest: string;
  /** Platform keys, sorted. */
  platforms: string[];
  /**
   * Platform key -> the config (metadata) digest of the package manifest the index lists for it,
   * for the platforms whose manifest the writer knew; absent in summaries written before it
   * existed. Every key is one of `platforms`.
   */
  configs?: ReadonlyMap<string, string>;
}

/** Version record tag -> its index, as the published summary states it. */
export type SummaryTags = Map<string, IndexRecord>;

/** `configs` is optional: a summary without it (an older writer's) is still schema 1. */
export const SUMMARY_SCHEMA = 1;

const digestPattern = /^sha256:[0-9a-f]{64}$/;

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The summary's config blob: `{"schema":1,"tags":{"<tag>":{"digest":…,"platforms":[…],
 * "configs":{"<platform>":…}}}}`, tags, platforms and configs sorted, keys in one fixed order,
 * `configs` left out when empty, so equal content always has the same digest. Written by hand
 * because an object would list integer-like tags (`1`, `2`) first.
 */
export function serializeSummary(tags: ReadonlyMap<string, IndexRecord>): Buffer {
  const entries = [...tags.keys()].sort(byCodeUnit).map((tag) => {
    const record = tags.get(tag) as IndexRecord;
    const platforms = [...new Set(record.platforms)].sort(byCodeUnit);
    const configs = [...(record.configs ?? [])]
      .filter(([platform]) => platforms.includes(platform))
      .sort(([a], [b]) => byCodeUnit(a, b))
      .map(([platform, digest]) => `${JSON.stringify(platform)}:${JSON.stringify(digest)}`);
    const head = `{"digest":${JSON.stringify(record.digest)},"platforms":${JSON.stringify(platforms)}`;
    return `${JSON.stringify(tag)}:${head}${configs.length > 0 ? `,"configs":{${configs.join(",")}}` : ""}}`;
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
    const configs = entry.configs === undefined ? new Map() : parseConfigs(tag, entry.configs, platforms);
    tags.set(tag, { digest: entry.digest, platforms, ...(configs.size === 0 ? {} : { configs }) });
  }
  return tags;
}

function parseConfigs(tag: string, value: unknown, platforms: readonly string[]): Map<string, string> {
  if (!isJsonObject(value)) throw invalid(`tag ${tag}: "configs" is not an object`);
  const configs = new Map<string, string>();
  for (const [platform, digest] of Object.entries(value)) {
    if (!platforms.includes(platform))
      throw invalid(`tag ${tag}: a config for unlisted ${JSON.stringify(platform)}`);
    if (typeof digest !== "string" || !digestPattern.test(digest)) {
      throw invalid(`tag ${tag}: the config of ${platform} is no sha256 digest`);
    }
    configs.set(platform, digest);
  }
  return configs;
}
