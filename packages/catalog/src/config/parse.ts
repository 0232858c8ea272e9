import { dirname, resolve } from "node:path";
import { parseCi } from "./ci.js";
import { ConfigError } from "./errors.js";
import {
  expectObject,
  type JsonObject,
  missingKey,
  optionalString,
  optionalValue,
  rejectUnknownKeys,
  requiredString,
} from "./json-value.js";
import { childPath, itemPath } from "./key-path.js";
import { parseDocsNav, parseFooter, parseNav } from "./nav.js";
import { containedPath, type NamedPath, type PathKind } from "./paths.js";
import { parseSources } from "./sources.js";
import type { Brand, CatalogConfig } from "./types.js";
import { checkOwnerUrl, checkSiteUrl } from "./urls.js";

/** The only `configVersion` this loader reads. */
export const CONFIG_VERSION = 1;

const TOP_KEYS = [
  "$schema",
  "configVersion",
  "sources",
  "brand",
  "nav",
  "footer",
  "docs",
  "docsNav",
  "css",
  "publicDir",
  "ci",
  "siteUrl",
  "ownerUrl",
  "description",
  "favicon",
];
const BRAND_KEYS = ["title", "wordmark", "logo"];

function checkVersion(config: JsonObject): void {
  const version = optionalValue(config, "configVersion");
  if (version !== undefined && version !== CONFIG_VERSION) {
    throw new ConfigError(
      "UNSUPPORTED_VERSION",
      `configVersion ${JSON.stringify(version)} is not supported; this pkg-catalog reads configVersion ${CONFIG_VERSION}`,
      "configVersion",
    );
  }
}

/** A config-relative path key, resolved and held inside the config directory by its text; noted in
 *  `paths`, for the loader to check what it names on disk. */
function optionalPath(
  object: JsonObject,
  key: string,
  path: string,
  kind: PathKind,
  { dir, paths }: PathContext,
): string | undefined {
  const raw = optionalString(object, key, path);
  if (raw === undefined) return undefined;
  const keyPath = childPath(path, key);
  const resolved = containedPath(dir, raw, keyPath);
  paths.push({ keyPath, raw, resolved, kind });
  return resolved;
}

interface PathContext {
  dir: string;
  paths: NamedPath[];
}

/** A validated config, and every local path it names (in file order) for the loader to check. */
export interface ParsedConfig {
  config: CatalogConfig;
  paths: NamedPath[];
}

function parseBrand(value: unknown, context: PathContext): Brand {
  if (value === undefined) throw missingKey("brand", "an object with a title");
  const brand = expectObject(value, "brand");
  rejectUnknownKeys(brand, BRAND_KEYS, "brand");
  const parsed: Brand = { title: requiredString(brand, "title", "brand") };
  const wordmark = optionalString(brand, "wordmark", "brand");
  if (wordmark !== undefined) parsed.wordmark = wordmark;
  const logo = optionalPath(brand, "logo", "brand", "file", context);
  if (logo !== undefined) parsed.logo = logo;
  return parsed;
}

/**
 * Validates a parsed `catalog.config.json` against every rule of catalog-config.md and returns it
 * with paths made absolute. `file` is the config's path: its directory is the base of every
 * relative path. Throws the first ConfigError met. Keys absent from the file stay absent. Reads no
 * file: what the paths name on disk is the loader's check (`loadCatalogConfig`).
 */
export function parseCatalogConfig(value: unknown, file: string): CatalogConfig {
  return parseConfigDocument(value, file).config;
}

/** `parseCatalogConfig`, with the local paths the config names. */
export function parseConfigDocument(value: unknown, file: string): ParsedConfig {
  const absolute = resolve(file);
  const dir = dirname(absolute);
  const context: PathContext = { dir, paths: [] };
  const config = expectObject(value, "");
  checkVersion(config);
  rejectUnknownKeys(config, TOP_KEYS, "");
  optionalString(config, "$schema", "");

  const sources = optionalValue(config, "sources");
  if (sources === undefined) throw missingKey("sources", "an array of at least one source");
  const parsed: CatalogConfig = {
    file: absolute,
    dir,
    sources: parseSources(sources, dir, "sources"),
    brand: parseBrand(optionalValue(config, "brand"), context),
  };

  const nav = optionalValue(config, "nav");
  if (nav !== undefined) parsed.nav = parseNav(nav, "nav");
  const footer = optionalValue(config, "footer");
  if (footer !== undefined) parsed.footer = parseFooter(footer, "footer");
  const docs = optionalPath(config, "docs", "", "directory", context);
  if (docs !== undefined) parsed.docs = docs;
  const docsNav = optionalValue(config, "docsNav");
  if (docsNav !== undefined) {
    if (docs === undefined) {
      throw new ConfigError(
        "INVALID_TYPE",
        "docsNav is set but docs is not; docsNav requires docs",
        "docsNav",
      );
    }
    parsed.docsNav = parseDocsNav(docsNav, "docsNav");
  }
  const css = optionalPath(config, "css", "", "file", context);
  if (css !== undefined) parsed.css = css;
  const publicDir = optionalPath(config, "publicDir", "", "directory", context);
  if (publicDir !== undefined) parsed.publicDir = publicDir;
  const ci = optionalValue(config, "ci");
  if (ci !== undefined) parsed.ci = parseCi(ci, "ci");
  const siteUrl = optionalString(config, "siteUrl", "");
  if (siteUrl !== undefined) parsed.siteUrl = checkSiteUrl(siteUrl, "siteUrl");
  const ownerUrl = optionalString(config, "ownerUrl", "");
  if (ownerUrl !== undefined) parsed.ownerUrl = checkOwnerUrl(ownerUrl, "ownerUrl");
  const description = optionalString(config, "description", "");
  if (description !== undefined) parsed.description = description;
  const favicon = optionalString(config, "favicon", "");
  if (favicon !== undefined) parsed.favicon = favicon;
  const sourcePaths = parsed.sources.flatMap((source): NamedPath[] =>
    source.kind === "path"
      ? [
          {
            keyPath: childPath(itemPath("sources", source.index), "path"),
            raw: source.rawPath,
            resolved: source.path,
          },
        ]
      : [],
  );
  return { config: parsed, paths: [...sourcePaths, ...context.paths] };
}
