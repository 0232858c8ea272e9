import { libcOf, type PlatformKey } from "@pkg/package";
import type { Field } from "./field.js";
import { readPlatformMap } from "./platform-key.js";

/**
 * `wheels`: per platform key, the ordered PEP 425 platform-tag prefixes a wheel must match
 * (earlier ranks higher). A `~` or omitted value is replaced by the key class's default.
 */
export type Wheels = Record<string, string[]>;

/** The default filter of a key, by OS and declared libc; undefined for an OS without one. */
export function defaultWheelFilter(key: PlatformKey): string[] | undefined {
  if (key.os === "linux") {
    const libc = libcOf(key);
    if (libc === "glibc") return ["manylinux", "any"];
    if (libc === "musl") return ["musllinux", "any"];
    return ["any"];
  }
  if (key.os === "darwin") return ["macosx", "any"];
  if (key.os === "windows") return ["win", "any"];
  return undefined;
}

const prefixPattern = /^[a-z0-9_]+$/;

export function readWheels(field: Field): Wheels | undefined {
  return readPlatformMap(field, readWheelEntry, { nonEmpty: true });
}

function readWheelEntry(field: Field, key: PlatformKey): string[] | undefined {
  if (key.variant !== undefined) {
    return field.fail(
      `wheels keys are <os>/<arch>[+libc.<flavor>], without a CPU variant ("${key.variant}")`,
    );
  }
  if (field.isNull) {
    const filter = defaultWheelFilter(key);
    return filter ?? field.fail(`${key.os} has no default wheel filter; list its platform-tag prefixes`);
  }
  const items = field.list({ nonEmpty: true });
  if (items === undefined) return undefined;
  const prefixes: string[] = [];
  for (const item of items) {
    const prefix = item.matching(prefixPattern, 'a platform-tag prefix (lowercase letters, digits, "_")');
    if (prefix === undefined) continue;
    if (prefixes.includes(prefix)) item.fail(`${JSON.stringify(prefix)} is listed twice`);
    else prefixes.push(prefix);
  }
  if (prefixes.length !== items.length) return undefined;
  const glibc = prefixes.some((p) => p.startsWith("manylinux"));
  const musl = prefixes.some((p) => p.startsWith("musllinux"));
  if (glibc && musl)
    return field.fail("one filter must not mix manylinux and musllinux prefixes; use one key per libc");
  const libc = libcOf(key);
  if ((libc === "glibc" && musl) || (libc === "musl" && glibc)) {
    return field.fail(
      `${key.key} declares ${libc}, but its filter selects ${glibc ? "manylinux (glibc)" : "musllinux (musl)"} wheels`,
    );
  }
  return prefixes;
}
