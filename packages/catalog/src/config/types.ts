/** A loaded, validated `catalog.config.json` (catalog-config.md). Paths are absolute, already checked
 *  to stay inside the config directory; every optional key stays undefined when absent. */
export interface CatalogConfig {
  /** Absolute path of the config file, and of its directory (the base of every relative path). */
  file: string;
  dir: string;
  sources: SourceEntry[];
  brand: Brand;
  nav?: NavEntry[];
  footer?: { links: NavEntry[] };
  /** Absolute docs directory. */
  docs?: string;
  docsNav?: NavEntry[];
  /** Absolute stylesheet path. */
  css?: string;
  /** Absolute static-assets directory. */
  publicDir?: string;
  ci?: CiConfig;
  siteUrl?: string;
  ownerUrl?: string;
  description?: string;
  favicon?: string;
}

export interface Brand {
  title: string;
  wordmark?: string;
  /** Absolute logo path. */
  logo?: string;
}

export interface NavEntry {
  text: string;
  link: string;
}

/** `ci` is an open object: unknown keys are kept as they were written. `packageManager` is NOT
 *  defaulted at load; the CI renderer applies `npm` itself (`ciPackageManager`). */
export interface CiConfig {
  forge: "github" | "gitlab";
  packageManager?: "npm" | "bun";
  verifyCi?: boolean;
  [extra: string]: unknown;
}

interface SourceCommon {
  /** Position in `sources[]`, for messages. */
  index: number;
  label?: string;
  root?: boolean;
  default?: boolean;
  excludeFromAll?: boolean;
  ownerUrl?: string;
}

export interface PathSourceEntry extends SourceCommon {
  kind: "path";
  /** Absolute index root directory. */
  path: string;
  /** As written in the file, for messages. */
  rawPath: string;
}

export interface UrlSourceEntry extends SourceCommon {
  kind: "url";
  /** https base URL of a deployed index, without a trailing slash. */
  url: string;
}

export interface GitSourceEntry extends SourceCommon {
  kind: "git";
  git: string;
  ref?: string;
  dir?: string;
}

export type SourceEntry = PathSourceEntry | UrlSourceEntry | GitSourceEntry;
