import { isAbsolute, relative, sep } from "node:path";

/**
 * Whether `path` is `root` or below it, by their text: the relative path is not absolute and its
 * first segment is not `..` (so a name like `..base.yml` is inside). Symlinks are not followed:
 * compare real paths for that.
 */
export function isInside(root: string, path: string): boolean {
  const plain = plainInside(root, path);
  if (plain !== undefined) return plain;
  const rel = relative(root, path);
  return !isAbsolute(rel) && rel.split(sep)[0] !== "..";
}

/**
 * The answer for two absolute POSIX paths in plain form (no empty segment, none starting with a
 * dot, no trailing slash), where being inside is a matter of prefix; undefined for anything else.
 * An index read checks several such paths per file, and `relative` resolves both of its arguments
 * each time.
 */
function plainInside(root: string, path: string): boolean | undefined {
  if (sep !== "/" || !isPlainAbsolute(root) || !isPlainAbsolute(path)) return undefined;
  if (root === "/") return true;
  return path.startsWith(root) && (path.length === root.length || path.charCodeAt(root.length) === 47);
}

function isPlainAbsolute(path: string): boolean {
  if (path === "/") return true;
  return (
    path.charCodeAt(0) === 47 &&
    path.charCodeAt(path.length - 1) !== 47 &&
    !path.includes("//") &&
    !path.includes("/.")
  );
}
