import { documentValue } from "../decode.js";
import { SUPPORTED_FORMAT_VERSION } from "../format-version.js";
import { parseCatalogIndex } from "../parse-catalog-index.js";
import type { IndexConfig } from "../types.js";
import { encodeIndexJson } from "./index-json.js";

/** `/config.json` of an index this writer starts: format 1, `<ns>/<pkg>` names. */
export function newIndexConfig(): IndexConfig {
  return { format_version: SUPPORTED_FORMAT_VERSION, name_segments: 2 };
}

export function encodeIndexConfig(config: IndexConfig): Uint8Array {
  return encodeIndexJson({ format_version: config.format_version, name_segments: config.name_segments });
}

/**
 * `/c/index.json` with `pkgPath` pointing at `rootDigest`: the committed document (`current`,
 * checked against c-index.schema.json, exit 65 naming `where`) or a new one, its packages sorted by
 * path so that the same set gives the same bytes.
 */
export function updateCatalogIndex(
  current: Uint8Array | undefined,
  where: string,
  pkgPath: string,
  rootDigest: string,
  options: { nameSegments?: number } = {},
): Uint8Array {
  const index =
    current === undefined
      ? { format_version: SUPPORTED_FORMAT_VERSION, packages: {} }
      : parseCatalogIndex(documentValue(current, where), where, options);
  const packages = new Map(Object.entries(index.packages));
  packages.set(pkgPath, rootDigest);
  const sorted = new Map([...packages].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return encodeIndexJson(
    new Map<string, number | Map<string, string>>([
      ["format_version", index.format_version],
      ["packages", sorted],
    ]),
  );
}
