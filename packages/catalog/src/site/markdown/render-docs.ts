import { relativeLinks, type SiteLink } from "../model/routes.js";
import { firstHeading, renderMarkdown } from "./markdown.js";
import { isAllowedHref, isHttps } from "./url-policy.js";

/** The site route of a docs Markdown file, from its path relative to the docs directory:
 *  `index.md` → `/docs/`, `guide.md` → `/docs/guide/`, `a/index.md` → `/docs/a/`. */
export function docsRoute(relativeMd: string): string {
  const withoutExt = relativeMd.replace(/\.md$/i, "");
  const trimmed = withoutExt === "index" ? "" : withoutExt.replace(/\/index$/, "");
  return trimmed === "" ? "/docs/" : `/docs/${trimmed}/`;
}

const base = "https://docs.invalid/";

function hasScheme(href: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(href);
}

/** The site path a docs link names, or undefined when it names none (a scheme, a fragment, an
 *  unsafe or foreign target): a site-root path as it is, a relative link resolved against its file
 *  (pages are served one level deeper than their file): another Markdown file becomes its page
 *  route, any other file its `/docs/` path. */
export function docsSitePath(href: string, fromMd: string): string | undefined {
  if (hasScheme(href) || href.startsWith("#") || !isAllowedHref(href)) return undefined;
  let url: URL;
  try {
    url = new URL(href, `${base}${fromMd}`);
  } catch {
    return undefined;
  }
  if (!url.href.startsWith(base)) return undefined;
  if (href.startsWith("/")) return `${url.pathname}${url.search}${url.hash}`;
  const path = url.pathname.slice(1);
  if (/\.md$/i.test(path)) return `${docsRoute(decodeURIComponent(path))}${url.hash}`;
  return `/docs/${path}${url.search}${url.hash}`;
}

/** A docs link as its page names it: a site path relative to the page, anything else unchanged. */
export function rewriteDocsHref(href: string, fromMd: string, link: SiteLink): string {
  const sitePath = docsSitePath(href, fromMd);
  return sitePath === undefined ? href : link(sitePath);
}

/** A relative URL the docs rewrite produced: no scheme, not protocol- or root-relative. */
function isPageRelative(src: string): boolean {
  return !hasScheme(src) && !/^[/\\]/.test(src) && isAllowedHref(src);
}

/** A docs page: the maintainer's Markdown, sanitised like a README but with site images and links
 *  to site paths (other docs pages, the catalog) relative to the page; the first heading is the title. */
export function renderDocsPage(source: string, relativeMd: string): { html: string; title: string } {
  const link = relativeLinks(docsRoute(relativeMd));
  // a document with raw HTML has its targets rewritten twice (tokens, then the sanitiser over the
  // output): a target this page already produced is kept as it is
  const produced = new Set<string>();
  const rewrite = (href: string) => {
    if (produced.has(href)) return href;
    const rewritten = rewriteDocsHref(href, relativeMd, link);
    produced.add(rewritten);
    return rewritten;
  };
  const html = renderMarkdown(source, {
    // sees the rewritten source: every site image is page-relative by then
    allowImage: (src) => isHttps(src) || isPageRelative(src),
    rewriteHref: rewrite,
    rewriteSrc: rewrite,
    demoteHeadings: false,
  });
  return { html, title: firstHeading(source) || relativeMd.replace(/\.md$/i, "") };
}
