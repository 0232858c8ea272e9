import { isAbsolute, relative, sep } from "node:path";

/**
 * Whether `path` is `root` or below it, by their text: the relative path is not absolute and its
 * first segment is not `..` (so a name like `..base.yml` is inside). Symlinks are not followed:
 * compare real paths for that.
 */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return !isAbsolute(rel) && rel.split(sep)[0] !== "..";
}
