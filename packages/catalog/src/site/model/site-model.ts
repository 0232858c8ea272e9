import { dataError } from "@pkg/common";
import type { CatalogConfig, SourceEntry } from "../../config/types.js";
import type { LoadedIndex } from "../../sources/types.js";
import { facetCounts } from "./facets.js";
import { ownerTemplate } from "./owners.js";
import { packageView } from "./package-view.js";
import { allRoute, indexRoute, isSafePackagePath, isSafeSegment, packageRoute } from "./routes.js";
import type { CatalogTab, IndexView, PackageView, SiteModel } from "./types.js";

function sourceOf(config: CatalogConfig, index: LoadedIndex): SourceEntry {
  const source =
    config.sources.find((s) => s.index === index.sourceIndex) ?? config.sources[index.sourceIndex];
  if (!source)
    throw dataError(`index ${index.label} names sources[${index.sourceIndex}], which does not exist`);
  return source;
}

function byName(a: PackageView, b: PackageView): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function tab(id: string, route: string, isDefault: boolean, packages: PackageView[]): CatalogTab {
  return {
    id,
    label: id,
    route,
    isDefault,
    packages,
    oses: facetCounts(packages, (p) => p.oses),
    keywords: facetCounts(packages, (p) => p.keywords),
  };
}

/**
 * The whole site as data: one view per index and package, the tabs with their facets, and the default
 * tab. Packages whose path is not a safe route are skipped with a warning; an unsafe label fails.
 */
export function buildSiteModel(
  config: CatalogConfig,
  loaded: readonly LoadedIndex[],
  warn: (line: string) => void,
): SiteModel {
  const explicitDefault = config.sources.find((s) => s.default === true);
  const defaultSource = explicitDefault ?? config.sources.find((s) => s.root === true);
  const indexes: IndexView[] = loaded.map((index) => {
    if (!isSafeSegment(index.label))
      throw dataError(`index label ${JSON.stringify(index.label)} is not a safe path segment`);
    const source = sourceOf(config, index);
    const root = source.root === true;
    const template = ownerTemplate(source.ownerUrl, config.ownerUrl);
    const packages: PackageView[] = [];
    for (const pkg of index.packages) {
      if (!isSafePackagePath(pkg.path)) {
        warn(`${index.label}: skipped package ${JSON.stringify(pkg.path)}: not a safe route`);
        continue;
      }
      packages.push(
        packageView(pkg, {
          label: index.label,
          route: packageRoute(index.label, pkg.path, root),
          ownerTemplate: template,
          hasFile: (path) => index.files.has(path),
        }),
      );
    }
    packages.sort(byName);
    return {
      label: index.label,
      root,
      isDefault: source === defaultSource,
      excludeFromAll: source.excludeFromAll === true,
      route: indexRoute(index.label),
      packages,
    };
  });
  const single = indexes.length === 1;
  const allPackages = indexes
    .filter((index) => single || !index.excludeFromAll)
    .flatMap((index) => index.packages)
    .sort(byName);
  const allTab = tab("all", allRoute, false, allPackages);
  const indexTabs = indexes.map((index) => tab(index.label, index.route, index.isDefault, index.packages));
  const defaultTab = indexTabs.find((t) => t.isDefault) ?? allTab;
  return { indexes, tabs: [allTab, ...indexTabs], defaultTab };
}
