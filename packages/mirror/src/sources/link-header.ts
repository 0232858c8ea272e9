/**
 * The `rel="next"` target of an RFC 8288 `Link` header, resolved against the page's URL;
 * undefined when there is none (the last page).
 */
export function nextLink(header: string | string[] | undefined, base: string): string | undefined {
  const values = header === undefined ? [] : Array.isArray(header) ? header : [header];
  for (const value of values) {
    for (const match of value.matchAll(/<([^>]*)>((?:\s*;\s*[^;,<]+)*)/g)) {
      const params = match[2] ?? "";
      const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(params);
      const relations = (rel?.[1] ?? rel?.[2] ?? "").toLowerCase().split(/\s+/);
      if (relations.includes("next")) return new URL(match[1] ?? "", base).href;
    }
  }
  return undefined;
}
