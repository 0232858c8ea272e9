import { type CatalogPage, catalogPages } from "../site/model/catalog-pages.js";
import { assetsDir } from "../site/model/routes.js";
import { buildSearchIndex, searchIndexScript } from "../site/model/search-index.js";
import type { CatalogTab, SiteModel } from "../site/model/types.js";
import { keywordRailSize } from "../site/render/catalog-page.js";
import type { SiteChrome } from "../site/render/chrome.js";
import { catalogDocument } from "../site/render/documents.js";
import { sha256Hex } from "./memo.js";
import { knownViewHash } from "./package-pages.js";
import { SiteWriter } from "./site-writer.js";

/** Where the browser finds the search index (src/client/catalog.ts loads it by this name). */
export const searchIndexFile = `${assetsDir}/search-index.js`;

/** What a tab shows on each of its pages besides its packages (see CatalogView). */
function tabInputs(tab: CatalogTab) {
  return [
    tab.id,
    tab.label,
    tab.route,
    tab.isDefault,
    tab.packages.length,
    tab.oses,
    tab.keywords.slice(0, keywordRailSize),
  ];
}

/**
 * The catalog view: `/` (the default tab's first page), every page of every tab, and the search
 * index the view loads when someone searches. Returns the routes written.
 *
 * A page's key hashes everything it is rendered from (the chrome, every tab's name, route and count,
 * its own tab's facets, its number and route, the views of its packages): onto a previous output,
 * a page whose key is the same is kept without rendering it (a change to one package renders the
 * pages that list it, and those whose counts or facets it changed).
 */
export async function writeCatalogPages(
  writer: SiteWriter,
  chrome: SiteChrome,
  model: SiteModel,
): Promise<string[]> {
  const site = JSON.stringify([
    chrome,
    model.tabs.map((tab) => [tab.id, tab.label, tab.route, tab.isDefault, tab.packages.length]),
  ]);
  const tabs = new Map(model.tabs.map((tab) => [tab, JSON.stringify(tabInputs(tab))]));
  const write = (path: string, tab: CatalogTab, page: CatalogPage, route: string, owner: string) => {
    const key = sha256Hex(
      [site, tabs.get(tab) ?? JSON.stringify(tabInputs(tab)), page.number, page.count, route]
        .concat(page.packages.map(knownViewHash))
        .join("\0"),
    );
    writer.writeRendered(path, key, owner, () => catalogDocument(chrome, model, tab, page, route));
  };
  const routes: string[] = [];
  const [front] = catalogPages(model.defaultTab);
  if (front) {
    write("index.html", model.defaultTab, front, "/", "the catalog view");
    routes.push("/");
  }
  for (const tab of model.tabs) {
    for (const page of catalogPages(tab)) {
      const owner = page.number === 1 ? `the ${tab.id} tab` : `page ${page.number} of the ${tab.id} tab`;
      write(SiteWriter.pagePath(page.route), tab, page, page.route, owner);
      routes.push(page.route);
    }
  }
  const index = buildSearchIndex({
    indexes: model.indexes.map((i) => ({
      label: i.label,
      excludeFromAll: i.excludeFromAll,
      packages: i.packages,
    })),
  });
  await writer.write(searchIndexFile, searchIndexScript(index), "the search index");
  return routes;
}
