import { matchPlatformKey } from "@pkg/package";
import { isMap } from "yaml";
import { closest } from "./diagnostics.js";
import type { Field, MapField } from "./field.js";
import { readPlatformMap } from "./platform-key.js";

/**
 * `asset_type`: how a download becomes the package's content tree, uniform or per platform. The
 * model always holds the per-platform form: the uniform form is its `default` with no overrides.
 */
export interface AssetTypeSpec {
  default: AssetTypeEntry;
  /** Canonical platform key to the entry that replaces `default` for that platform. */
  platforms: Record<string, AssetTypeEntry>;
}

export type AssetTypeEntry = ArchiveAssetType | BinaryAssetType;

/** The download is an archive, extracted with leading path components dropped. */
export interface ArchiveAssetType {
  type: "archive";
  /** Default 0 (nothing stripped). */
  strip_components: StripComponents;
}

/** The download is the executable itself (a bare `.gz`/`.xz`/`.zst`/`.bz2` is decompressed first). */
export interface BinaryAssetType {
  type: "binary";
  /** File name of the executable in the package. */
  name: string;
}

export interface StripComponents {
  default: number;
  platforms: Record<string, number>;
}

/** What a spec without `asset_type` gets: an archive, nothing stripped. */
export const DEFAULT_ASSET_TYPE: AssetTypeSpec = {
  default: { type: "archive", strip_components: { default: 0, platforms: {} } },
  platforms: {},
};

/** The resolved asset type of one platform. */
export function assetTypeFor(
  spec: AssetTypeSpec | undefined,
  platform: string,
): { type: "archive"; strip_components: number } | BinaryAssetType {
  const entry = spec?.platforms[platform] ?? spec?.default ?? DEFAULT_ASSET_TYPE.default;
  if (entry.type === "binary") return entry;
  return {
    type: "archive",
    strip_components: entry.strip_components.platforms[platform] ?? entry.strip_components.default,
  };
}

const ENTRY_KEYS = ["type", "strip_components", "name"];
const FORM_KEYS = ["default", "platforms"];
const fileName = /^(?!\.\.?$)[^/\\\0]+$/;

export function readAssetType(field: Field): AssetTypeSpec | undefined {
  const map = field.map();
  if (!map) return undefined;
  if (!FORM_KEYS.some((key) => map.has(key))) {
    refuseUnknownKeys(
      map,
      ENTRY_KEYS,
      "per-platform asset types go under platforms: beside a default: entry",
    );
    const entry = readEntryKeys(map, { stripObject: true });
    return entry && { default: entry, platforms: {} };
  }
  refuseUnknownKeys(map, FORM_KEYS, "platform keys go under platforms:, not beside default:");
  const defaultEntry = readEntry(map.require("default"), { stripObject: true });
  const platformsField = map.get("platforms");
  const platforms = platformsField.present
    ? readPlatformMap(platformsField, (value) => readEntry(value, { stripObject: false }))
    : {};
  return defaultEntry && platforms && { default: defaultEntry, platforms };
}

/** Refuses keys outside `own`: a platform key with `hint`, any other with a "did you mean". */
function refuseUnknownKeys(map: MapField, own: readonly string[], hint: string): void {
  for (const { key, keyField } of map.fields()) {
    if (own.includes(key)) continue;
    if (typeof matchPlatformKey(key) !== "string") {
      keyField.fail(`${JSON.stringify(key)} is a platform key: ${hint}`);
      continue;
    }
    const near = closest(key, own);
    keyField.fail(
      `unknown key ${JSON.stringify(key)}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ""}`,
    );
  }
}

function readEntry(field: Field | undefined, options: { stripObject: boolean }): AssetTypeEntry | undefined {
  const map = field?.map();
  if (!map) return undefined;
  map.only(ENTRY_KEYS);
  return readEntryKeys(map, options);
}

function readEntryKeys(map: MapField, options: { stripObject: boolean }): AssetTypeEntry | undefined {
  const type = map.require("type")?.oneOf(["archive", "binary"] as const);
  const strip = map.get("strip_components");
  const name = map.get("name");
  if (type === "binary") {
    if (strip.present) strip.fail("strip_components applies only to type: archive");
    const text = map.require("name")?.matching(fileName, "a file name (no directory)");
    return text === undefined || strip.present ? undefined : { type, name: text };
  }
  if (type === "archive") {
    if (name.present) name.fail("name applies only to type: binary (an archive keeps the names it holds)");
    const strip_components = strip.present ? readStrip(strip, options) : { default: 0, platforms: {} };
    return strip_components === undefined || name.present ? undefined : { type, strip_components };
  }
  return undefined;
}

function readStrip(field: Field, options: { stripObject: boolean }): StripComponents | undefined {
  const map = options.stripObject && isMap(field.value) ? field.map() : undefined;
  if (!map) {
    const count = field.integer({ min: 0 });
    return count === undefined ? undefined : { default: count, platforms: {} };
  }
  map.only(["default", "platforms"]);
  const count = map.require("default")?.integer({ min: 0 });
  const platformsField = map.get("platforms");
  const platforms = platformsField.present
    ? readPlatformMap(platformsField, (value) => value.integer({ min: 0 }))
    : {};
  return count === undefined || platforms === undefined ? undefined : { default: count, platforms };
}
