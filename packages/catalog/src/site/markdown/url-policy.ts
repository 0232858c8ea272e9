const allowedSchemes = new Set(["http", "https", "mailto"]);

/** A link target the pages may carry: http(s), mailto or relative, never protocol-relative. Control
 *  characters and whitespace are ignored the way browsers ignore them when reading a scheme. */
export function isAllowedHref(href: string): boolean {
  const compact = withoutSpace(href).toLowerCase();
  if (compact.startsWith("//") || compact.startsWith("/\\") || compact.startsWith("\\")) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(compact);
  return scheme === null || allowedSchemes.has(scheme[1] ?? "");
}

/** `text` without U+0000 to U+0020 (a code unit that low is never half of a surrogate pair). */
function withoutSpace(text: string): string {
  let at = 0;
  while (at < text.length && text.charCodeAt(at) > 0x20) at++;
  if (at === text.length) return text;
  let out = text.slice(0, at);
  for (; at < text.length; at++) if (text.charCodeAt(at) > 0x20) out += text[at];
  return out;
}

export function isHttps(src: string): boolean {
  // an absolute URL has a scheme and its colon (and a parse that throws is slow)
  if (!src.includes(":")) return false;
  try {
    return new URL(src).protocol === "https:";
  } catch {
    return false;
  }
}
