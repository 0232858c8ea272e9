import { readdir, readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import type { CatalogConfig } from "../config/types.js";
import { docsRoute, renderDocsPage } from "../site/markdown/render-docs.js";
import { catalogJson } from "../site/model/catalog-json.js";
import { assetsDir } from "../site/model/routes.js";
import { checkTopLevelRoutes } from "../site/model/top-level.js";
import type { PackageView, SiteModel } from "../site/model/types.js";
import type { SiteChrome } from "../site/render/chrome.js";
import { docsDocument, notFoundDocument } from "../site/render/documents.js";
import { forEachBounded } from "./bounded.js";
import { brandLogoName, chromeOf, customCssPath } from "./chrome-of.js";
import { clientDir, clientFiles } from "./client-assets.js";
import { headersFile, headersFileName } from "./headers-file.js";
import { sha256Hex } from "./memo.js";
import { createPageRenderer } from "./page-pool.js";
import { SiteWriter } from "./site-writer.js";
import { sitemapXml } from "./sitemap.js";
import { walkFiles } from "./walk-files.js";
import { writeCatalogPages } from "./write-catalog-pages.js";

/** One package page to render: its view, and where its README is read from during the build. */
export interface PageSource {
  pkg: PackageView;
  /** The README file to read (the mirrored copy), and its index path (its digest is in the name). */
  readme?: { file: string; path: string };
}

export interface WriteSiteInput {
  config: CatalogConfig;
  model: SiteModel;
  /** Every package page, in any order. */
  pages: PageSource[];
  /** The renderer's hash (part of every page's key). */
  renderer: string;
  warn: (line: string) => void;
  log: (line: string) => void;
}

/** What the pages of a build did: rendered, or kept from the previous output (same key). */
export interface PageCounts {
  rendered: number;
  reused: number;
}

/** Package pages queued to the workers at once. */
const pagesInFlight = 16;
/** Page workers: one per core (the main thread reads and writes meanwhile, mostly in the kernel). */
const pageWorkers = Math.max(1, Math.min(availableParallelism(), 8));

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

/** The key of a package page: everything its bytes depend on. */
function pageKey(
  renderer: string,
  chromeJson: string,
  page: PageSource,
  successorRoute: string | undefined,
): string {
  return sha256Hex(
    JSON.stringify([renderer, chromeJson, page.pkg, page.readme?.path ?? null, successorRoute ?? null]),
  );
}

async function writePackagePages(
  writer: SiteWriter,
  input: WriteSiteInput,
  chrome: SiteChrome,
): Promise<PageCounts> {
  const routeByName = new Map<string, string>();
  for (const index of input.model.indexes) {
    for (const pkg of index.packages) routeByName.set(pkg.name, pkg.route);
  }
  const chromeJson = JSON.stringify(chrome);
  const counts: PageCounts = { rendered: 0, reused: 0 };
  const jobs: { path: string; key: string; page: PageSource; successorRoute: string | undefined }[] = [];
  for (const page of input.pages) {
    const { pkg } = page;
    const successorRoute = pkg.supersededBy === undefined ? undefined : routeByName.get(pkg.supersededBy);
    const path = writer.claim(SiteWriter.pagePath(pkg.route), `the package ${pkg.name}`);
    const key = pageKey(input.renderer, chromeJson, page, successorRoute);
    if (writer.keepPage(path, key)) counts.reused++;
    else jobs.push({ path, key, page, successorRoute });
  }
  if (jobs.length === 0) return counts;
  const renderer = createPageRenderer(chrome, Math.min(pageWorkers, Math.ceil(jobs.length / 64)));
  try {
    await forEachBounded(jobs, pagesInFlight, async ({ path, key, page, successorRoute }) => {
      const file = writer.pageTarget(path);
      const ident = await renderer.run({
        file,
        pkg: page.pkg,
        ...(page.readme === undefined ? {} : { readmeFile: page.readme.file }),
        ...(successorRoute === undefined ? {} : { successorRoute }),
      });
      writer.written(path, key, ident);
      counts.rendered++;
    });
  } finally {
    await renderer.close();
  }
  return counts;
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

  const packageCount = model.indexes.reduce((n, index) => n + index.packages.length, 0);
  log(`rendering ${packageCount} package pages and the catalog pages`);
  // the workers render package pages while this thread renders the catalog pages and docs
  const packagePages = writePackagePages(writer, input, chrome);
  // awaited below; until then a failure must not count as unhandled
  packagePages.catch(() => {});
  const routes: string[] = [];
  try {
    routes.push(...(await writeCatalogPages(writer, chrome, model)));
    if (config.docs !== undefined) routes.push(...(await writeDocs(writer, config.docs, chrome, warn)));
  } finally {
    await packagePages.catch(() => {});
  }
  const counts = await packagePages;
  for (const index of model.indexes) for (const pkg of index.packages) routes.push(pkg.route);
  await writer.write("catalog.json", `${JSON.stringify(catalogJson(model))}\n`, "the catalog JSON");
  await writer.write("404.html", notFoundDocument(chrome), "the 404 page");
  if (chrome.siteUrl !== undefined)
    await writer.write("sitemap.xml", sitemapXml(chrome.siteUrl, routes), "the sitemap");
  // every route plus the 404 page
  return { pages: routes.length + 1, packagePages: counts };
}
