import { createRequire } from "node:module";
import type sanitizeHtml from "sanitize-html";
import { isHttps } from "./url-policy.js";

/** sanitize-html, loaded when a document first needs it (only raw HTML does): loading it takes a
 *  fifth of a second, which a build that renders no such document never spends. */
let sanitizer: typeof sanitizeHtml | undefined;
function loadSanitizer(): typeof sanitizeHtml {
  sanitizer ??= createRequire(import.meta.url)("sanitize-html") as typeof sanitizeHtml;
  return sanitizer;
}

const allowedTags = [
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "p",
  "br",
  "hr",
  "blockquote",
  "pre",
  "code",
  "kbd",
  "samp",
  "em",
  "strong",
  "b",
  "i",
  "s",
  "del",
  "ins",
  "sub",
  "sup",
  "mark",
  "abbr",
  "small",
  "ul",
  "ol",
  "li",
  "dl",
  "dt",
  "dd",
  "table",
  "thead",
  "tbody",
  "tfoot",
  "tr",
  "th",
  "td",
  "caption",
  "a",
  "img",
  "details",
  "summary",
  "div",
  "span",
  "figure",
  "figcaption",
];

/** What differs between README and docs pages. */
export interface SanitizePolicy {
  allowImage: (src: string) => boolean;
  /** Rewrites a kept link target (docs map `guide.md` to its page route). */
  rewriteHref?: (href: string) => string;
  /** Rewrites a kept image source (docs resolve relative images against their file). */
  rewriteSrc?: (src: string) => string;
  /** Moves headings two levels down, below the page's own h1 and section h2. */
  demoteHeadings: boolean;
}

export const demoted: Record<string, string> = { h1: "h3", h2: "h4", h3: "h5", h4: "h6", h5: "h6" };

/**
 * Sanitises Markdown-produced HTML with a strict allowlist: no scripts, styles, frames, objects, forms,
 * event handlers or style/class/id attributes; links only http(s), mailto or relative, and marked
 * `nofollow noopener`; images only where the policy allows them.
 */
export function sanitizeMarkdownHtml(html: string, policy: SanitizePolicy): string {
  const transformTags: sanitizeHtml.IOptions["transformTags"] = {
    a: (tagName, attribs) => {
      const href =
        attribs.href !== undefined && policy.rewriteHref ? policy.rewriteHref(attribs.href) : attribs.href;
      const out: sanitizeHtml.Attributes = { ...attribs, rel: "nofollow noopener" };
      if (href !== undefined) out.href = href;
      return { tagName, attribs: out };
    },
  };
  const rewriteSrc = policy.rewriteSrc;
  if (rewriteSrc) {
    transformTags.img = (tagName, attribs) =>
      attribs.src === undefined
        ? { tagName, attribs }
        : { tagName, attribs: { ...attribs, src: rewriteSrc(attribs.src) } };
  }
  if (policy.demoteHeadings) {
    for (const [from, to] of Object.entries(demoted)) transformTags[from] = to;
  }
  return loadSanitizer()(html, {
    allowedTags,
    allowedAttributes: {
      a: ["href", "title", "rel"],
      img: ["src", "alt", "title", "width", "height"],
      th: ["align", "colspan", "rowspan"],
      td: ["align", "colspan", "rowspan"],
      ol: ["start"],
      details: ["open"],
      abbr: ["title"],
    },
    allowedSchemes: ["http", "https", "mailto"],
    allowedSchemesByTag: { img: ["https"] },
    allowedSchemesAppliedToAttributes: ["href", "src"],
    allowProtocolRelative: false,
    disallowedTagsMode: "discard",
    nonTextTags: [
      "script",
      "style",
      "textarea",
      "option",
      "noscript",
      "template",
      "iframe",
      "object",
      "embed",
      "svg",
      "math",
    ],
    transformTags,
    exclusiveFilter: (frame) => {
      if (frame.tag !== "img") return false;
      const src = frame.attribs.src;
      return typeof src !== "string" || !policy.allowImage(src);
    },
  });
}

/** README policy: images only from https or the package's own logo; headings below the page's. */
export function readmePolicy(logoHref: string | undefined): SanitizePolicy {
  return {
    allowImage: (src) => isHttps(src) || (logoHref !== undefined && src === logoHref),
    demoteHeadings: true,
  };
}
