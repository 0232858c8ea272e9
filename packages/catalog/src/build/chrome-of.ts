import { basename } from "node:path";
import type { CatalogConfig, NavEntry } from "../config/types.js";
import type { SiteChrome } from "../site/render/chrome.js";

export const customCssPath = "assets/custom.css";

/** The site-root file name the brand logo is copied to. */
export function brandLogoName(config: CatalogConfig): string | undefined {
  return config.brand.logo === undefined ? undefined : basename(config.brand.logo);
}

/** Branding, navigation and stylesheets of every page, from the config. */
export function chromeOf(config: CatalogConfig): SiteChrome {
  const docsEntries: NavEntry[] =
    config.docs === undefined ? [] : (config.docsNav ?? [{ text: "docs", link: "/docs/" }]);
  const logo = brandLogoName(config);
  const chrome: SiteChrome = {
    title: config.brand.title,
    wordmark: config.brand.wordmark ?? config.brand.title,
    nav: [...docsEntries, ...(config.nav ?? [])],
    footerLinks: config.footer?.links ?? [],
    stylesheets: ["/assets/site.css", ...(config.css === undefined ? [] : [`/${customCssPath}`])],
  };
  if (logo !== undefined) chrome.logoHref = `/${logo}`;
  if (config.favicon !== undefined) chrome.favicon = config.favicon;
  if (config.description !== undefined) chrome.description = config.description;
  if (config.siteUrl !== undefined) chrome.siteUrl = config.siteUrl.replace(/\/+$/, "");
  return chrome;
}
