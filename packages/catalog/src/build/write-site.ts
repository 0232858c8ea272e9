import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { CatalogConfig } from "../config/types.js";
import { catalogJson } from "../site/model/catalog-json.js";
import { assetsDir } from "../site/model/routes.js";
import { checkTopLevelRoutes } from "../site/model/top-level.js";
import type { SiteModel } from "../site/model/types.js";
import type { SiteChrome } from "../site/render/chrome.js";
import { docsDocument, notFoundDocument } from "../site/render/documents.js";
import { brandLogoName, chromeOf, customCssPath } from "./chrome-of.js";
import { clientDir, clientFiles } from "./client-assets.js";
import { headersFile, headersFileName } from "./headers-file.js";
import type { PackagePages, PageCounts, PageSource } from "./package-pages.js";
import { SiteWriter } from "./site-writer.js";
import { sitemapXml } from "./sitemap.js";
import { walkFiles } from "./walk-files.js";
import { writeCatalogPages } from "./write-catalog-pages.js";

export interface WriteSiteInput {
  config: CatalogConfig;
  model: SiteModel;
  /** The package pages, some added already (while the sources were read). */
  pages: PackagePages;
  /** Pages still to add: those that need the routes of every package (a successor's). */
  deferred: PageSource[];
  warn: (line: string) => void;
  log: (line: string) => void;
}

/** The public directory, copied verbatim to the site root. */
async function copyPublicDir(writer: SiteWriter, from: string, warn: (line: string) => void): Promise<void> {
  const files = await walkFiles(from, (path) => warn(`publicDir: skipped ${path}: not a regular file`));
  for (const path of files) await writer.copy(path, join(from, path), `publicDir file ${path}`);
}

async function writeDocs(
  writer: SiteWriter,
  docsDir: string,
  chrome: SiteChrome,
  warn: (line: string) => void,
): Promise<string[]> {
  const routes: string[] = [];
  // markdown-it is loaded only for a site with docs: its modules took 40 ms of every rebuild's start
  const { docsRoute, renderDocsPage } = await import("../site/markdown/render-docs.js");
  const files = await walkFiles(docsDir, (path) => warn(`docs: skipped ${path}: not a regular file`));
  for (const path of files) {
    if (!/\.md$/i.test(path)) {
      await writer.copy(`docs/${path}`, join(docsDir, path), `docs file ${path}`);
      continue;
    }
    const route = docsRoute(path);
    const { html, title } = renderDocsPage(await readFile(join(docsDir, path), "utf8"), path);
    await writer.write(
      SiteWriter.pagePath(route),
      docsDocument(chrome, title, route, html),
      `docs page ${path}`,
    );
    routes.push(route);
  }
  return routes;
}

async function topLevelNames(dir: string | undefined): Promise<string[]> {
  return dir === undefined ? [] : (await readdir(dir)).sort();
}

/** Refuses top-level names claimed twice (a public file, a namespace, a label...), before any file is
 *  written. */
export async function checkSiteRoutes(config: CatalogConfig, model: SiteModel): Promise<void> {
  const logoName = brandLogoName(config);
  checkTopLevelRoutes(model, {
    docs: config.docs !== undefined,
    sitemap: config.siteUrl !== undefined,
    ...(logoName === undefined ? {} : { brandLogo: logoName }),
    publicNames: await topLevelNames(config.publicDir),
  });
}

/**
 * Renders and writes everything of the site but the mirrored index (already placed) through
 * `writer`. Returns the counts of pages.
 */
export async function writeSite(
  writer: SiteWriter,
  input: WriteSiteInput,
): Promise<{ pages: number; packagePages: PageCounts }> {
  const { config, model, warn, log } = input;
  const chrome = chromeOf(config);
  const logoName = brandLogoName(config);
  for (const file of clientFiles)
    await writer.copy(`${assetsDir}/${file}`, `${clientDir}${file}`, "the built-in assets");
  if (config.css !== undefined) await writer.copy(customCssPath, config.css, "css");
  if (config.brand.logo !== undefined && logoName !== undefined)
    await writer.copy(logoName, config.brand.logo, "brand.logo");
  if (config.publicDir !== undefined) await copyPublicDir(writer, config.publicDir, warn);
  await writer.write(headersFileName, headersFile(), `the ${headersFileName} file`);

  const routeByName = new Map<string, string>();
  for (const index of model.indexes) for (const pkg of index.packages) routeByName.set(pkg.name, pkg.route);
  for (const page of input.deferred) {
    const successor = page.pkg.supersededBy;
    input.pages.add(page, successor === undefined ? undefined : routeByName.get(successor), page.known);
  }
  // the package pages finish (and their workers stop) before the catalog pages take their memory
  const counts = await input.pages.finish();
  log("rendering the catalog pages");
  const routes: string[] = [];
  routes.push(...(await writeCatalogPages(writer, chrome, model)));
  if (config.docs !== undefined) routes.push(...(await writeDocs(writer, config.docs, chrome, warn)));
  for (const index of model.indexes) for (const pkg of index.packages) routes.push(pkg.route);
  await writer.write("catalog.json", `${JSON.stringify(catalogJson(model))}\n`, "the catalog JSON");
  await writer.write("404.html", notFoundDocument(chrome), "the 404 page");
  if (chrome.siteUrl !== undefined)
    await writer.write("sitemap.xml", sitemapXml(chrome.siteUrl, routes), "the sitemap");
  // every route plus the 404 page
  return { pages: routes.length + 1, packagePages: counts };
}
