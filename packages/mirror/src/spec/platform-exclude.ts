import type { Field } from "./field.js";
import { readVersionLiteral } from "./version-literal.js";

/**
 * A hole in a platform's version window: one exact version, or a range (`min_version` inclusive,
 * `max_version` exclusive, either alone). `severity` defaults to `broken` (reported with a lock chip
 * and the reason); `skip` drops the pair silently.
 */
export type PlatformExclude = { reason?: string; severity: "broken" | "skip" } & (
  | { version: string }
  | { min_version?: string; max_version?: string }
);

const EXCLUDE_KEYS = ["version", "min_version", "max_version", "reason", "severity"];

export function readExclude(field: Field): PlatformExclude | undefined {
  const map = field.map();
  if (!map) return undefined;
  const before = map.diagnostics.list.length;
  map.only(EXCLUDE_KEYS);
  const hasRange = map.has("min_version") || map.has("max_version");
  if (map.has("version") && hasRange) {
    return map.fail("an exclude sets either version or a min_version/max_version range, not both");
  }
  if (!map.has("version") && !hasRange)
    return map.fail("an exclude needs version, or min_version and/or max_version");

  const bound = (key: string) => (map.has(key) ? readVersionLiteral(map.get(key)) : undefined);
  const version = bound("version");
  const min = bound("min_version");
  const max = bound("max_version");
  const reason = map.has("reason") ? map.get("reason").string() : undefined;
  const severity = map.has("severity") ? map.get("severity").oneOf(["broken", "skip"] as const) : "broken";
  if (map.diagnostics.list.length > before || severity === undefined) return undefined;

  const common = { ...(reason === undefined ? {} : { reason }), severity };
  if (version !== undefined) return { version, ...common };
  return {
    ...(min === undefined ? {} : { min_version: min }),
    ...(max === undefined ? {} : { max_version: max }),
    ...common,
  };
}
