import type { NavEntry } from "../../config/types.js";

/** What every page shares: branding, navigation, footer and stylesheets. */
export interface SiteChrome {
  title: string;
  wordmark: string;
  /** Site path of the brand logo; the built-in mark is shown when absent. */
  logoHref?: string;
  /** Site-root-relative path or absolute http(s) URL of the tab icon. */
  favicon?: string;
  description?: string;
  /** Deployment URL without a trailing slash; it may carry a base path (`https://h/catalog`). */
  siteUrl?: string;
  /** Docs entries first, then `nav`. */
  nav: NavEntry[];
  /** `footer.links`; the catalog-JSON link is always added after them. */
  footerLinks: NavEntry[];
  /** Site paths of the built-in stylesheet, then the custom one. */
  stylesheets: string[];
}

export const contentSecurityPolicy =
  "default-src 'self'; img-src 'self' https: data:; script-src 'self'; style-src 'self'";

/** Site paths of the scripts. All are classic scripts (modules and fetch are refused over file://,
 *  and a page must also read from disk); every one but the theme script is deferred. */
export const scripts = {
  /** In <head>, not deferred: applies the remembered theme before the first paint. */
  theme: "/assets/theme.js",
  /** On every page: theme toggle, the palette trigger, directory links over file://. */
  site: "/assets/site.js",
  /** On the catalog view only: filters, search, sort, views. */
  catalog: "/assets/catalog.js",
} as const;
