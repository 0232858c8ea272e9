import { headersFileName } from "../site/model/top-level.js";
import { contentSecurityPolicy } from "../site/render/chrome.js";

export { headersFileName };

/** The policy of every response: the pages' own meta policy, plus what only a header can say. */
export const siteHeaderPolicy = `${contentSecurityPolicy}; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;

/** An SVG opened by its own URL is a document on the site's origin: it may load nothing, run no
 *  script, and is sandboxed (an opaque origin), whatever the file holds. */
export const svgHeaderPolicy = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * The `_headers` file: a path pattern per block, then indented `Name: value` lines, as Netlify and
 * Cloudflare Pages read it. Their `*` matches any characters, slashes included, so `/*.svg` covers
 * the mirrored logos under `/index/<label>/p/...` and, for the root index, `/p/...`. Both rules
 * apply to an SVG; two policies are both enforced.
 */
export function headersFile(): string {
  return [
    "# Response headers, for hosts that read this file (Netlify, Cloudflare Pages). Written by pkg-catalog.",
    "/*",
    `  Content-Security-Policy: ${siteHeaderPolicy}`,
    "  X-Content-Type-Options: nosniff",
    "  Referrer-Policy: strict-origin-when-cross-origin",
    "",
    "# An SVG (a mirrored package logo) opened by its URL runs no script on this origin.",
    "/*.svg",
    `  Content-Security-Policy: ${svgHeaderPolicy}`,
    "",
  ].join("\n");
}
