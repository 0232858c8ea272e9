/**
 * The path segments a request's URL path names inside the site, or undefined when it names
 * nothing a static host would serve: undecodable escapes, `.`/`..` segments, and segments holding
 * a slash, backslash or NUL once decoded are refused rather than normalised.
 */
export function requestSegments(pathname: string): string[] | undefined {
  if (!pathname.startsWith("/")) return undefined;
  const segments: string[] = [];
  const raw = pathname.slice(1).split("/");
  for (const [position, part] of raw.entries()) {
    // a trailing slash leaves one empty last part: it names the directory itself
    if (part === "" && position === raw.length - 1) break;
    let segment: string;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return undefined;
    }
    if (segment === "" || segment === "." || segment === ".." || /[/\\\0]/.test(segment)) return undefined;
    segments.push(segment);
  }
  return segments;
}
