import MarkdownIt from "markdown-it";
import type Token from "markdown-it/lib/token.mjs";
import { demoted, type SanitizePolicy, sanitizeMarkdownHtml } from "./sanitize.js";
import { isAllowedHref } from "./url-policy.js";

interface PolicyEnv {
  policy: SanitizePolicy;
  hasHtml: boolean;
}

/** Applies the sanitiser's rules to the tokens Markdown syntax produces, so that a document without
 *  raw HTML renders safe as it is: link and image targets, `rel`, heading levels, and no class or style
 *  attributes (fence languages and table alignment). */
function enforce(tokens: Token[], env: PolicyEnv): void {
  for (const token of tokens) {
    switch (token.type) {
      case "fence":
        token.info = "";
        break;
      case "th_open":
      case "td_open": {
        const align = /^text-align:(left|right|center)$/.exec(String(token.attrGet("style") ?? ""))?.[1];
        token.attrs = align ? [["align", align]] : null;
        break;
      }
      case "heading_open":
      case "heading_close":
        // with raw HTML the sanitiser demotes every heading, these included
        if (env.policy.demoteHeadings && !env.hasHtml) token.tag = demoted[token.tag] ?? token.tag;
        break;
      case "link_open": {
        const href = String(token.attrGet("href") ?? "");
        const rewritten = env.policy.rewriteHref ? env.policy.rewriteHref(href) : href;
        token.attrs = (token.attrs ?? []).filter(([name]) => name !== "href");
        if (isAllowedHref(rewritten)) token.attrSet("href", rewritten);
        token.attrSet("rel", "nofollow noopener");
        break;
      }
      case "image": {
        const src = String(token.attrGet("src") ?? "");
        const rewritten = env.policy.rewriteSrc ? env.policy.rewriteSrc(src) : src;
        if (isAllowedHref(rewritten) && env.policy.allowImage(rewritten)) {
          token.attrSet("src", rewritten);
        } else {
          token.type = "text";
          token.content = "";
          token.children = null;
        }
        break;
      }
    }
    if (token.children) enforce(token.children, env);
  }
}

function hasRawHtml(tokens: Token[]): boolean {
  return tokens.some(
    (token) =>
      token.type === "html_block" ||
      token.type === "html_inline" ||
      (token.children !== null && hasRawHtml(token.children)),
  );
}

const markdown = new MarkdownIt({ html: true, linkify: false, typographer: false });

/** Links markdown-it's normalizer leaves as they are: a lowercase ASCII host and a plain path. For
 *  these the parse, punycode and percent-encoding it does per link (a tenth of a README's rendering)
 *  give back the same string. */
const plainLink = /^https?:\/\/[a-z0-9.-]+(?::[0-9]+)?(?:\/[A-Za-z0-9\-._~/]*)?$/;
const normalizeAnyLink = markdown.normalizeLink.bind(markdown);
/** The link normalizer the renderer uses (exported for its equivalence test). */
export const normalizeLink = (url: string): string => (plainLink.test(url) ? url : normalizeAnyLink(url));
markdown.normalizeLink = normalizeLink;
markdown.core.ruler.push("catalog_policy", (state) => {
  const env = state.env as PolicyEnv;
  env.hasHtml = hasRawHtml(state.tokens);
  enforce(state.tokens, env);
});

/**
 * Markdown to safe HTML. Raw HTML is allowed by the parser; when a document has any, the whole output
 * goes through the allowlist sanitiser. A document without raw HTML is made safe at the token level,
 * which is several times faster than parsing the output again.
 */
export function renderMarkdown(source: string, policy: SanitizePolicy): string {
  const env: PolicyEnv = { policy, hasHtml: false };
  const html = markdown.render(source, env);
  return env.hasHtml ? sanitizeMarkdownHtml(html, policy) : html;
}

/** The text of the first heading, for a page title. */
export function firstHeading(source: string): string | undefined {
  const tokens = markdown.parse(source, {
    policy: { allowImage: () => false, demoteHeadings: false },
    hasHtml: false,
  });
  const at = tokens.findIndex((t) => t.type === "heading_open");
  return at >= 0 ? tokens[at + 1]?.content : undefined;
}
