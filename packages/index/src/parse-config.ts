import { Checker } from "./checker.js";
import { documentValue } from "./decode.js";
import { checkFormatVersion } from "./format-version.js";
import type { IndexConfig } from "./types.js";

/** `/config.json` (config.schema.json). `input` is the file's bytes or its parsed value. */
export function parseIndexConfig(input: unknown, where: string): IndexConfig {
  const check = new Checker(where);
  const obj = check.object(documentValue(input, where), "$");
  checkFormatVersion(check, obj);
  check.members(obj, "$", [], ["format_version", "name_segments"]);
  if (obj.name_segments !== undefined) check.integer(obj.name_segments, "$.name_segments", 1);
  return obj as unknown as IndexConfig;
}
