const allowedSchemes = new Set(["http", "https", "mailto"]);

/** A link target the pages may carry: http(s), mailto or relative, never protocol-relative. Control
 *  characters and whitespace are ignored the way browsers ignore them when reading a scheme. */
export function isAllowedHref(href: string): boolean {
  const compact = [...href]
    .filter((c) => c.charCodeAt(0) > 0x20)
    .join("")
    .toLowerCase();
  if (compact.startsWith("//") || compact.startsWith("/\\") || compact.startsWith("\\")) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(compact);
  return scheme === null || allowedSchemes.has(scheme[1] ?? "");
}

export function isHttps(src: string): boolean {
  try {
    return new URL(src).protocol === "https:";
  } catch {
    return false;
  }
}
