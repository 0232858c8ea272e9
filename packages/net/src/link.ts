/** The `rel="next"` target of one RFC 8288 `Link` value (`<url>; rel="next"`), as written. */
function nextLinkTarget(header: string): string | undefined {
  const pattern = /<([^>]*)>\s*((?:;\s*[^;,]+)*)/g;
  for (const match of header.matchAll(pattern)) {
    const params = match[2] ?? "";
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;\s,]+))/i.exec(params);
    const values = (rel?.[1] ?? rel?.[2] ?? "").toLowerCase().split(/\s+/);
    if (values.includes("next")) return match[1];
  }
  return undefined;
}

/**
 * The `rel="next"` target of the `Link` header(s) of a page (paged listings: forge releases,
 * registry tags), resolved against the page's URL; undefined when there is none (the last page).
 */
export function nextLink(
  header: string | readonly string[] | undefined,
  base: string | URL,
): string | undefined {
  const values = header === undefined ? [] : typeof header === "string" ? [header] : header;
  for (const value of values) {
    const target = nextLinkTarget(value);
    if (target !== undefined) return new URL(target, base).href;
  }
  return undefined;
}
