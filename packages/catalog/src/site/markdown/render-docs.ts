import { firstHeading, renderMarkdown } from "./markdown.js";
import { isHttps } from "./url-policy.js";

/** The site route of a docs Markdown file, from its path relative to the docs directory:
 *  `index.md` → `/docs/`, `guide.md` → `/docs/guide/`, `a/index.md` → `/docs/a/`. */
export function docsRoute(relativeMd: string): string {
  const withoutExt = relativeMd.replace(/\.md$/i, "");
  const trimmed = withoutExt === "index" ? "" : withoutExt.replace(/\/index$/, "");
  return trimmed === "" ? "/docs/" : `/docs/${trimmed}/`;
}

const base = "https://docs.invalid/";

/** Resolves a relative link of a docs file against that file (pages are served one level deeper than
 *  their file): another Markdown file becomes its page route, any other file its `/docs/` path. */
export function rewriteDocsHref(href: string, fromMd: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("/") || href.startsWith("#")) return href;
  const url = new URL(href, `${base}${fromMd}`);
  if (!url.href.startsWith(base)) return href;
  const path = url.pathname.slice(1);
  if (/\.md$/i.test(path)) return `${docsRoute(decodeURIComponent(path))}${url.hash}`;
  return `/docs/${path}${url.search}${url.hash}`;
}

/** A docs page: the maintainer's Markdown, sanitised like a README but with site-relative images and
 *  links between docs pages resolved; the first heading is the title. */
export function renderDocsPage(source: string, relativeMd: string): { html: string; title: string } {
  const html = renderMarkdown(source, {
    allowImage: (src) => isHttps(src) || (src.startsWith("/") && !src.startsWith("//")),
    rewriteHref: (href) => rewriteDocsHref(href, relativeMd),
    rewriteSrc: (src) => rewriteDocsHref(src, relativeMd),
    demoteHeadings: false,
  });
  return { html, title: firstHeading(source) || relativeMd.replace(/\.md$/i, "") };
}
