import { catalogPages } from "../site/model/catalog-pages.js";
import { assetsDir } from "../site/model/routes.js";
import { buildSearchIndex, searchIndexScript } from "../site/model/search-index.js";
import type { SiteModel } from "../site/model/types.js";
import type { SiteChrome } from "../site/render/chrome.js";
import { catalogDocument } from "../site/render/documents.js";
import { SiteWriter } from "./site-writer.js";

/** Where the browser finds the search index (src/client/catalog.ts loads it by this name). */
export const searchIndexFile = `${assetsDir}/search-index.js`;

/**
 * The catalog view: `/` (the default tab's first page), every page of every tab, and the search
 * index the view loads when someone searches. Returns the routes written.
 */
export async function writeCatalogPages(
  writer: SiteWriter,
  chrome: SiteChrome,
  model: SiteModel,
): Promise<string[]> {
  const routes: string[] = [];
  const [front] = catalogPages(model.defaultTab);
  if (front) {
    await writer.write(
      "index.html",
      catalogDocument(chrome, model, model.defaultTab, front, "/"),
      "the catalog view",
    );
    routes.push("/");
  }
  for (const tab of model.tabs) {
    for (const page of catalogPages(tab)) {
      const owner = page.number === 1 ? `the ${tab.id} tab` : `page ${page.number} of the ${tab.id} tab`;
      await writer.write(
        SiteWriter.pagePath(page.route),
        catalogDocument(chrome, model, tab, page, page.route),
        owner,
      );
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
