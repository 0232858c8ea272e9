import { dataError } from "@pkg/common";
import type { CatalogConfig, SourceEntry } from "../../config/types.js";
import type { LoadedIndex, LoadedPackage } from "../../sources/types.js";
import { facetCounts } from "./facets.js";
import { ownerTemplate } from "./owners.js";
import { packageView } from "./package-view.js";
import { allRoute, indexRoute, isSafePackagePath, isSafeSegment, packageRoute } from "./routes.js";
import type { CatalogTab, IndexView, PackageSummary, PackageView, SiteModel } from "./types.js";

function sourceOf(config: CatalogConfig, index: IndexRef): SourceEntry {
  const source =
    config.sources.find((s) => s.index === index.sourceIndex) ?? config.sources[index.sourceIndex];
  if (!source)
    throw dataError(`index ${index.label} names sources[${index.sourceIndex}], which does not exist`);
  return source;
}

function byName(a: PackageSummary, b: PackageSummary): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function tab<P extends PackageSummary>(
  id: string,
  route: string,
  isDefault: boolean,
  packages: P[],
): CatalogTab<P> {
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

/** An index as the model needs it before its packages are viewed. */
export interface IndexRef {
  label: string;
  /** Position of the source in `sources[]`. */
  sourceIndex: number;
}

/** What every package view of one index shares: whether it is the root index, and its owner links. */
export function indexContextOf(
  config: CatalogConfig,
  index: IndexRef,
): { root: boolean; ownerTemplate: string } {
  const source = sourceOf(config, index);
  return { root: source.root === true, ownerTemplate: ownerTemplate(source.ownerUrl, config.ownerUrl) };
}

function checkLabel(label: string): void {
  if (!isSafeSegment(label))
    throw dataError(`index label ${JSON.stringify(label)} is not a safe path segment`);
}

/** The views of some packages of one index; a package whose path is not a safe route is skipped with
 *  a warning. `hasFile` tells which index files the site mirrors (a logo is linked only then). */
export function packageViewsOf(
  config: CatalogConfig,
  index: IndexRef,
  packages: readonly LoadedPackage[],
  hasFile: (indexPath: string) => boolean,
  warn: (line: string) => void,
): PackageView[] {
  checkLabel(index.label);
  const { root, ownerTemplate: template } = indexContextOf(config, index);
  const views: PackageView[] = [];
  for (const pkg of packages) {
    if (!isSafePackagePath(pkg.path)) {
      warn(`${index.label}: skipped package ${JSON.stringify(pkg.path)}: not a safe route`);
      continue;
    }
    views.push(
      packageView(pkg, {
        label: index.label,
        route: packageRoute(index.label, pkg.path, root),
        ownerTemplate: template,
        hasFile,
      }),
    );
  }
  return views;
}

/**
 * The whole site as data: one view per index and package, the tabs with their facets, and the default
 * tab. Packages whose path is not a safe route are skipped with a warning; an unsafe label fails.
 */
export function buildSiteModel(
  config: CatalogConfig,
  loaded: readonly LoadedIndex[],
  warn: (line: string) => void,
): SiteModel<PackageView> {
  return assembleSiteModel(
    config,
    loaded.map((index) => ({
      label: index.label,
      sourceIndex: index.sourceIndex,
      packages: packageViewsOf(config, index, index.packages, (path) => index.files.has(path), warn),
    })),
  );
}

/** The model from the package views of every index (in any order: each index is sorted by name). */
export function assembleSiteModel<P extends PackageSummary>(
  config: CatalogConfig,
  viewed: readonly (IndexRef & { packages: P[] })[],
): SiteModel<P> {
  const explicitDefault = config.sources.find((s) => s.default === true);
  const defaultSource = explicitDefault ?? config.sources.find((s) => s.root === true);
  const indexes: IndexView<P>[] = viewed.map((index) => {
    checkLabel(index.label);
    const source = sourceOf(config, index);
    const packages = [...index.packages].sort(byName);
    return {
      label: index.label,
      root: source.root === true,
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
