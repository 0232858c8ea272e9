/** The `rel="next"` target of an RFC 8288 `Link` header (`<url>; rel="next"`), as written. */
export function nextLink(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const pattern = /<([^>]*)>\s*((?:;\s*[^;,]+)*)/g;
  for (const match of header.matchAll(pattern)) {
    const params = match[2] ?? "";
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;\s,]+))/i.exec(params);
    const values = (rel?.[1] ?? rel?.[2] ?? "").toLowerCase().split(/\s+/);
    if (values.includes("next")) return match[1];
  }
  return undefined;
}
