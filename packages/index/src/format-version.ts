import type { Checker } from "./checker.js";
import { childPath } from "./json-path.js";

/** The highest `format_version` this code reads. */
export const SUPPORTED_FORMAT_VERSION = 1;

/** Checks `format_version` before anything else, so a newer generation is refused for being newer,
 *  not for a field it added. */
export function checkFormatVersion(check: Checker, obj: Record<string, unknown>): number {
  const path = childPath("$", "format_version");
  if (!Object.hasOwn(obj, "format_version")) check.fail(path, "required property missing");
  const version = check.integer(obj.format_version, path, 1);
  if (version > SUPPORTED_FORMAT_VERSION) {
    check.fail(
      "",
      `format_version ${version} is newer than this tool understands (${SUPPORTED_FORMAT_VERSION})`,
    );
  }
  return version;
}
