import type { Field } from "./field.js";
import { readPlatformMap } from "./platform-key.js";
import { readRegexList } from "./regex.js";

/**
 * `assets`: platform key (canonical spelling) to an ordered list of RE2 patterns over upstream
 * asset file names. Exactly one distinct match selects a platform's asset; none means the
 * platform is absent for that version; two or more is an ambiguity.
 */
export type AssetsSpec = Record<string, string[]>;

export function readAssets(field: Field): AssetsSpec | undefined {
  return readPlatformMap(field, (value) => readRegexList(value), { nonEmpty: true });
}
