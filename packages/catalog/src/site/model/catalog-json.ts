import type { CatalogEntry } from "./catalog-entry.js";
import type { PackageSummary, SiteModel } from "./types.js";

/** One package in `/catalog.json`: what the command palette searches and machines read. */
export interface CatalogJsonPackage extends CatalogEntry {
  platforms: string[];
  status: string;
}

/** Names the tool in `/catalog.json`; a later build trusts a directory holding it as its own. */
export const CATALOG_GENERATOR = "pkg-catalog";

/** The first keys of every `/catalog.json`, in order. */
const CATALOG_JSON_HEAD = { format_version: 1, generator: CATALOG_GENERATOR } as const;

/** How every `/catalog.json` a build writes begins: enough to know one without parsing it whole. */
export const CATALOG_JSON_START = `${JSON.stringify(CATALOG_JSON_HEAD).slice(0, -1)},`;

export interface CatalogJson {
  format_version: 1;
  generator: typeof CATALOG_GENERATOR;
  indexes: {
    label: string;
    route: string;
    root: boolean;
    default: boolean;
    excludeFromAll: boolean;
    packages: number;
  }[];
  packages: CatalogJsonPackage[];
}

/** `os/arch` or `os/arch (libc)`. */
export function platformLabels(pkg: PackageSummary): string[] {
  return pkg.platforms.map((p) => (p.libc ? `${p.os}/${p.arch} (${p.libc})` : `${p.os}/${p.arch}`));
}

/** Every package of every index, including indexes kept out of `all`. */
export function catalogJson(model: SiteModel): CatalogJson {
  return {
    ...CATALOG_JSON_HEAD,
    indexes: model.indexes.map((index) => ({
      label: index.label,
      route: index.route,
      root: index.root,
      default: index.isDefault,
      excludeFromAll: index.excludeFromAll,
      packages: index.packages.length,
    })),
    packages: model.indexes.flatMap((index) =>
      index.packages.map((pkg) => ({
        name: pkg.name,
        route: pkg.route,
        index: index.label,
        title: pkg.title,
        description: pkg.description,
        keywords: pkg.keywords,
        latest: pkg.latest ?? null,
        platforms: platformLabels(pkg),
        status: pkg.status,
      })),
    ),
  };
}
