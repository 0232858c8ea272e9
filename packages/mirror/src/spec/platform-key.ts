import { matchPlatformKey, type PlatformKey } from "@pkg/package";
import type { Field } from "./field.js";
import { platformValueProblem } from "./platform-values.js";

/**
 * A platform key as the spec takes it: the package tool's grammar, and os, architecture and
 * variant among the OCI values. The key, or why the text is not one.
 */
export function matchSpecPlatformKey(text: string): PlatformKey | string {
  const key = matchPlatformKey(text);
  if (typeof key === "string") return key;
  return platformValueProblem(key) ?? key;
}

/** A mapping key read as a platform key; a key that is not one is refused (exit 65) at the key. */
export function readPlatformKey(keyField: Field, text: string): PlatformKey | undefined {
  const key = matchSpecPlatformKey(text);
  if (typeof key === "string") return keyField.fail(`invalid platform key ${JSON.stringify(text)}: ${key}`);
  return key;
}

/**
 * A mapping keyed by platform keys (`assets`, `metadata.platforms`, `asset_type.platforms`...):
 * every key checked, every value read by `read`. The result is keyed by the canonical key
 * spelling; undefined when anything was refused.
 */
export function readPlatformMap<T>(
  field: Field,
  read: (value: Field, key: PlatformKey) => T | undefined,
  options: { nonEmpty?: boolean } = {},
): Record<string, T> | undefined {
  const map = field.map();
  if (!map) return undefined;
  if (options.nonEmpty && map.entries.length === 0) return map.fail("must name at least one platform");
  const out: Record<string, T> = {};
  let ok = true;
  for (const { key, field, keyField } of map.fields()) {
    const platform = readPlatformKey(keyField, key);
    const value = platform ? read(field, platform) : undefined;
    if (platform && value !== undefined) out[platform.key] = value;
    else ok = false;
  }
  return ok ? out : undefined;
}
