import { nextLink as nextLinkTarget } from "@pkg/oci";

/**
 * The `rel="next"` target of the `Link` header(s) of a listing page, resolved against the page's
 * URL; undefined when there is none (the last page).
 */
export function nextLink(header: string | string[] | undefined, base: string): string | undefined {
  const values = header === undefined ? [] : Array.isArray(header) ? header : [header];
  for (const value of values) {
    const target = nextLinkTarget(value);
    if (target !== undefined) return new URL(target, base).href;
  }
  return undefined;
}
