/** @jsxRuntime automatic */
/** @jsxImportSource preact */

import type { CatalogPage } from "../model/catalog-pages.js";
import { basedLinks, indexRoute } from "../model/routes.js";
import type { CatalogTab, PackageView, SiteModel } from "../model/types.js";
import { CatalogView, catalogScripts } from "./catalog-page.js";
import type { SiteChrome } from "./chrome.js";
import { renderDocument } from "./html.js";
import { Page } from "./layout.js";
import { PackagePage } from "./package-page.js";
import { DocsPage, NotFoundPage } from "./simple-pages.js";

/** A catalog page at `route`: `/` (the default tab's first page), a tab's page (`/all/`,
 *  `/index/<label>/`) or a later page of one (`/all/page/2/`). */
export function catalogDocument(
  chrome: SiteChrome,
  model: SiteModel,
  tab: CatalogTab,
  page: CatalogPage,
  route: string,
): string {
  const front = route === "/";
  const tabTitle = tab.id === "all" ? "All packages" : `${tab.label} packages`;
  const title = front ? chrome.title : page.number > 1 ? `${tabTitle}, page ${page.number}` : tabTitle;
  return renderDocument(
    <Page chrome={chrome} title={title} route={route} extraScripts={catalogScripts}>
      <CatalogView
        model={model}
        tab={tab}
        page={page}
        // the front page reads as the product: the header's wordmark names the catalog, the h1 says
        // what it holds (the description), else it is for the outline only
        heading={front ? (chrome.description ?? chrome.title) : title}
        headingHidden={front && chrome.description === undefined}
      />
    </Page>,
  );
}

export function packageDocument(
  chrome: SiteChrome,
  pkg: PackageView,
  readmeHtml: string | undefined,
  successorRoute: string | undefined,
): string {
  return renderDocument(
    <Page chrome={chrome} title={pkg.title} route={pkg.route} description={pkg.description || undefined}>
      <PackagePage
        pkg={pkg}
        indexRoute={indexRoute(pkg.indexLabel)}
        readmeHtml={readmeHtml}
        successorRoute={successorRoute}
      />
    </Page>,
  );
}

export function docsDocument(chrome: SiteChrome, title: string, route: string, html: string): string {
  return renderDocument(
    <Page chrome={chrome} title={title} route={route}>
      <DocsPage html={html} />
    </Page>,
  );
}

/** The base path the 404 page names every site path under: it is served at any depth, so its links
 *  cannot be relative. The path of `siteUrl` when set, else `/`. */
export function notFoundBase(chrome: SiteChrome): string {
  return chrome.siteUrl === undefined ? "/" : new URL(chrome.siteUrl).pathname;
}

export function notFoundDocument(chrome: SiteChrome): string {
  return renderDocument(
    <Page chrome={chrome} title="Page not found" route="/404.html" links={basedLinks(notFoundBase(chrome))}>
      <NotFoundPage />
    </Page>,
  );
}
