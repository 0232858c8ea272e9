import type { Platform } from "@pkg/oci";
import { matchPlatformKey, type PlatformKey } from "./key.js";

/** The image-index entry platform of a key; a `+libc.<flavor>` becomes `os.features: ["libc.<flavor>"]`. */
export function toOciPlatform(key: PlatformKey): Platform {
  const platform: Platform = { architecture: key.architecture, os: key.os };
  if (key.features.length > 0) platform["os.features"] = [...key.features];
  if (key.variant !== undefined) platform.variant = key.variant;
  return platform;
}

/**
 * The key of an index entry's platform, or undefined when the platform says something a key cannot
 * (an `os.version`, a feature other than one libc, values outside the key grammar): such an entry
 * was not written by these tools and never equals a platform they publish.
 */
export function platformKeyFromOci(platform: Platform): PlatformKey | undefined {
  if (platform["os.version"] !== undefined && platform["os.version"] !== "") return undefined;
  const variant = platform.variant ? `/${platform.variant}` : "";
  const features = platform["os.features"] ?? [];
  const text = `${platform.os}/${platform.architecture}${variant}${features.length > 0 ? `+${features.join(",")}` : ""}`;
  const key = matchPlatformKey(text);
  return typeof key === "string" ? undefined : key;
}

/**
 * Whether two index entries are for the same platform, so that publishing one replaces the other:
 * os, architecture, variant and `os.version` equal (absent and empty alike), `os.features` equal
 * as sets.
 */
export function platformsEqual(a: Platform, b: Platform): boolean {
  return (
    a.os === b.os &&
    a.architecture === b.architecture &&
    (a.variant || undefined) === (b.variant || undefined) &&
    (a["os.version"] || undefined) === (b["os.version"] || undefined) &&
    sameSet(a["os.features"] ?? [], b["os.features"] ?? [])
  );
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((value) => right.has(value));
}

/**
 * An index entry's platform for people: the canonical key when it has one
 * (`linux/amd64+libc.musl`), else the same shape with whatever else it says
 * (`windows/amd64 (os.version 10.0.20348)`).
 */
export function formatPlatform(platform: Platform): string {
  const variant = platform.variant ? `/${platform.variant}` : "";
  const features = [...(platform["os.features"] ?? [])].sort();
  const featureText = features.length > 0 ? `+${features.join(",")}` : "";
  const osVersion = platform["os.version"] ? ` (os.version ${platform["os.version"]})` : "";
  return `${platform.os}/${platform.architecture}${variant}${featureText}${osVersion}`;
}
