import type { Field } from "./field.js";
import { normaliseHttpUrl, readHttpUrl } from "./http-url.js";

/**
 * `source.url_rewrite`: moves the download host of every upstream asset URL by prefix
 * substitution. Both halves are stored normalised (scheme and host in lower case, default port
 * dropped), the form `rewriteUrl` matches in.
 */
export interface UrlRewrite {
  from: string;
  to: string;
}

export function readUrlRewrite(field: Field): UrlRewrite | undefined {
  const map = field.map();
  if (!map) return undefined;
  map.only(["from", "to"]);
  const fromField = map.require("from");
  const toField = map.require("to");
  const from = fromField && readHttpUrl(fromField, { normalise: true });
  const to = toField && readHttpUrl(toField, { normalise: true });
  return from !== undefined && to !== undefined ? { from, to } : undefined;
}

/** The URL with `rewrite.from` replaced by `rewrite.to`; a URL not starting with `from` is returned unchanged. */
export function rewriteUrl(url: string, rewrite: UrlRewrite): string {
  const normal = normaliseHttpUrl(url);
  if ("problem" in normal || !normal.url.startsWith(rewrite.from)) return url;
  return rewrite.to + normal.url.slice(rewrite.from.length);
}
