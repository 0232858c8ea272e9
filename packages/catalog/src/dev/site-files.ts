import { realpath, stat } from "node:fs/promises";
import { extname, join, sep } from "node:path";
import { requestSegments } from "./request-path.js";

/** What a request path names in the built site, resolved the way a static host does. */
export type SiteLookup =
  | { kind: "file"; path: string }
  | { kind: "redirect"; location: string }
  | { kind: "missing" };

/**
 * Resolves a URL path against `root` (a real path): a directory serves its `index.html` (and is
 * redirected to its slash form first), `/a/b` falls back to `/a/b.html`. Whatever is found must
 * really lie inside `root`, links included.
 */
export async function lookupSiteFile(root: string, pathname: string): Promise<SiteLookup> {
  const segments = requestSegments(pathname);
  if (segments === undefined) return { kind: "missing" };
  const candidate = join(root, ...segments);
  const found = await statOrUndefined(candidate);
  if (found?.isDirectory()) {
    if (!pathname.endsWith("/")) return { kind: "redirect", location: `${pathname}/` };
    return inside(root, join(candidate, "index.html"));
  }
  if (found?.isFile()) return inside(root, candidate);
  const last = segments.at(-1);
  if (last !== undefined && extname(last) === "") return inside(root, `${candidate}.html`);
  return { kind: "missing" };
}

async function inside(root: string, path: string): Promise<SiteLookup> {
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    return { kind: "missing" };
  }
  if (!real.startsWith(root + sep)) return { kind: "missing" };
  const found = await statOrUndefined(real);
  return found?.isFile() ? { kind: "file", path: real } : { kind: "missing" };
}

async function statOrUndefined(path: string) {
  try {
    return await stat(path);
  } catch {
    return undefined;
  }
}
