import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { CatalogConfig } from "../config/types.js";
import { docsRoute, renderDocsPage } from "../site/markdown/render-docs.js";
import { catalogJson } from "../site/model/catalog-json.js";
import { assetsDir } from "../site/model/routes.js";
import { checkTopLevelRoutes } from "../site/model/top-level.js";
import type { SiteModel } from "../site/model/types.js";
import type { SiteChrome } from "../site/render/chrome.js";
import { docsDocument, notFoundDocument } from "../site/render/documents.js";
import type { LoadedIndex, LoadedPackage } from "../sources/types.js";
import { forEachBounded } from "./bounded.js";
import { brandLogoName, chromeOf, customCssPath } from "./chrome-of.js";
import { clientDir, clientFiles } from "./client-assets.js";
import { headersFile, headersFileName } from "./headers-file.js";
import { createPageRenderer } from "./page-pool.js";
import { isSafeRelativePath, SiteWriter } from "./site-writer.js";
import { sitemapXml } from "./sitemap.js";
import { walkFiles } from "./walk-files.js";
import { writeCatalogPages } from "./write-catalog-pages.js";

export interface WriteSiteInput {
  config: CatalogConfig;
  /** Consumed while writing: files and packages are released once written, to bound memory. */
  indexes: LoadedIndex[];
  model: SiteModel;
  warn: (line: string) => void;
  log: (line: string) => void;
}

/** Package pages queued to the workers at once. */
const pagesInFlight = 8;
/** Page workers: the machines this runs on have two cores or more. */
const pageWorkers = 2;

/** The public directory, copied verbatim to the site root. */
async function copyPublicDir(writer: SiteWriter, from: string, warn: (line: string) => void): Promise<void> {
  const files = await walkFiles(from, (path) => warn(`publicDir: skipped ${path}: not a regular file`));
  for (const path of files) await writer.copy(path, join(from, path), `publicDir file ${path}`);
}

function writeMirrors(
  writer: SiteWriter,
  indexes: LoadedIndex[],
  rootLabel: string | undefined,
  warn: (line: string) => void,
): void {
  for (const index of indexes) {
    const owner = `the index ${index.label}`;
    for (const [path, bytes] of index.files) {
      if (!isSafeRelativePath(path)) {
        warn(`${index.label}: skipped index file ${JSON.stringify(path)}: not a plain relative path`);
        continue;
      }
      const mirrored = `index/${index.label}/${path}`;
      writer.writeSync(mirrored, bytes, owner);
      if (index.label === rootLabel) writer.writeSync(path, bytes, owner, mirrored);
    }
    index.files.clear();
  }
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

async function writePackagePages(
  writer: SiteWriter,
  input: WriteSiteInput,
  chrome: SiteChrome,
): Promise<void> {
  // the pages own the loaded packages from here: each is released once its page is rendered
  const loadedByKey = new Map<string, LoadedPackage>();
  for (const index of input.indexes) {
    for (const pkg of index.packages) loadedByKey.set(`${index.label}\0${pkg.path}`, pkg);
    index.packages.length = 0;
  }
  const routeByName = new Map<string, string>();
  for (const index of input.model.indexes) {
    for (const pkg of index.packages) routeByName.set(pkg.name, pkg.route);
  }
  const renderer = createPageRenderer(chrome, pageWorkers);
  const pages = input.model.indexes.flatMap((index) =>
    index.packages.map((pkg) => ({ label: index.label, pkg })),
  );
  try {
    await forEachBounded(pages, pagesInFlight, async ({ label, pkg }) => {
      const key = `${label}\0${pkg.path}`;
      const readme = loadedByKey.get(key)?.readme;
      loadedByKey.delete(key);
      const file = await writer.prepare(SiteWriter.pagePath(pkg.route), `the package ${pkg.name}`);
      const successorRoute = pkg.supersededBy === undefined ? undefined : routeByName.get(pkg.supersededBy);
      await renderer.run({
        file,
        pkg,
        ...(readme === undefined ? {} : { readme }),
        ...(successorRoute === undefined ? {} : { successorRoute }),
      });
    });
  } finally {
    await renderer.close();
  }
}

async function topLevelNames(dir: string | undefined): Promise<string[]> {
  return dir === undefined ? [] : (await readdir(dir)).sort();
}

/** Renders and writes the whole site into `dir` (an empty directory). Returns the counts written. */
export async function writeSite(
  dir: string,
  input: WriteSiteInput,
): Promise<{ pages: number; files: number }> {
  const { config, model, warn, log } = input;
  const chrome = chromeOf(config);
  const logoName = brandLogoName(config);
  checkTopLevelRoutes(model, {
    docs: config.docs !== undefined,
    sitemap: config.siteUrl !== undefined,
    ...(logoName === undefined ? {} : { brandLogo: logoName }),
    publicNames: await topLevelNames(config.publicDir),
  });
  const writer = new SiteWriter(dir);
  for (const file of clientFiles)
    await writer.copy(`${assetsDir}/${file}`, `${clientDir}${file}`, "the built-in assets");
  if (config.css !== undefined) await writer.copy(customCssPath, config.css, "css");
  if (config.brand.logo !== undefined && logoName !== undefined)
    await writer.copy(logoName, config.brand.logo, "brand.logo");
  if (config.publicDir !== undefined) await copyPublicDir(writer, config.publicDir, warn);
  await writer.write(headersFileName, headersFile(), `the ${headersFileName} file`);
  const rootIndex = model.indexes.find((index) => index.root);
  log(`mirroring ${input.indexes.reduce((n, index) => n + index.files.size, 0)} index files`);
  writeMirrors(writer, input.indexes, rootIndex?.label, warn);

  const packageCount = model.indexes.reduce((n, index) => n + index.packages.length, 0);
  log(`rendering ${packageCount} package pages and ${model.tabs.length + 1} catalog pages`);
  // the workers render package pages while this thread renders the catalog pages and docs
  const packagePages = writePackagePages(writer, input, chrome);
  // awaited below; until then a failure must not count as unhandled
  packagePages.catch(() => {});
  const routes: string[] = [];
  try {
    routes.push(...(await writeCatalogPages(writer, chrome, model)));
    if (config.docs !== undefined) routes.push(...(await writeDocs(writer, config.docs, chrome, warn)));
  } finally {
    await packagePages;
  }
  for (const index of model.indexes) for (const pkg of index.packages) routes.push(pkg.route);
  await writer.write("catalog.json", `${JSON.stringify(catalogJson(model))}\n`, "the catalog JSON");
  await writer.write("404.html", notFoundDocument(chrome), "the 404 page");
  if (chrome.siteUrl !== undefined)
    await writer.write("sitemap.xml", sitemapXml(chrome.siteUrl, routes), "the sitemap");
  // every route plus the 404 page
  return { pages: routes.length + 1, files: writer.fileCount };
}
