import { Checker } from "./checker.js";
import { documentValue } from "./decode.js";
import { isSha256Digest } from "./digest.js";
import { IndexFormatError } from "./errors.js";
import { checkFormatVersion } from "./format-version.js";
import { DEFAULT_NAME_SEGMENTS, isSafePackagePath } from "./grammar.js";
import { childPath } from "./json-path.js";
import type { CatalogIndex } from "./types.js";

export interface CatalogIndexOptions {
  /** `name_segments` of the index's config.json; 2 when absent. */
  nameSegments?: number;
  /** When given, an entry with a bad key or digest is left out of the result and reported here
   *  instead of refusing the whole document (the catalog skips such packages with a warning). */
  onBadEntry?: (key: string, message: string) => void;
}

/** `/c/index.json` (c-index.schema.json): every key a safe package path, every value a sha256 digest. */
export function parseCatalogIndex(
  input: unknown,
  where: string,
  options: CatalogIndexOptions = {},
): CatalogIndex {
  const segments = options.nameSegments ?? DEFAULT_NAME_SEGMENTS;
  const check = new Checker(where);
  const obj = check.object(documentValue(input, where), "$");
  checkFormatVersion(check, obj);
  check.members(obj, "$", ["packages"], ["format_version", "packages"]);
  const packages = check.object(obj.packages, "$.packages");
  const kept: Record<string, string> = {};
  for (const [key, digest] of Object.entries(packages)) {
    try {
      // the entry's JSON path is made only for an error: ten thousand of them were a tenth of reading
      // a large index
      if (!isSafePackagePath(key, segments))
        check.fail(childPath("$.packages", key), "not a valid package path");
      if (!isSha256Digest(digest)) check.fail(childPath("$.packages", key), "not a sha256 digest");
    } catch (error) {
      if (options.onBadEntry === undefined || !(error instanceof IndexFormatError)) throw error;
      options.onBadEntry(key, error.message);
      continue;
    }
    kept[key] = digest as string;
  }
  return { ...(obj as object), packages: kept } as CatalogIndex;
}
