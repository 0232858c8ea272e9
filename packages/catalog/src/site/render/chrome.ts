import type { NavEntry } from "../../config/types.js";

/** What every page shares: branding, navigation, footer and stylesheets. */
export interface SiteChrome {
  title: string;
  wordmark: string;
  /** Site href of the brand logo; the built-in mark is shown when absent. */
  logoHref?: string;
  favicon?: string;
  description?: string;
  /** Deployment origin without a trailing slash. */
  siteUrl?: string;
  /** Docs entries first, then `nav`. */
  nav: NavEntry[];
  /** `footer.links`; the catalog-JSON link is always added after them. */
  footerLinks: NavEntry[];
  /** The built-in stylesheet, then the custom one. */
  stylesheets: string[];
}

export const contentSecurityPolicy =
  "default-src 'self'; img-src 'self' https: data:; script-src 'self'; style-src 'self'";

export const scripts = {
  /** Classic script in <head>: applies the remembered theme before the first paint. */
  theme: "/assets/theme.js",
  /** Module on every page: theme toggle and the palette trigger. */
  site: "/assets/site.js",
  /** Module on the catalog view only: filters, search, sort, views. */
  catalog: "/assets/catalog.js",
} as const;
