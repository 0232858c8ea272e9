import { isAbsolute, relative, sep } from "node:path";

/** True when `target` is `base` itself or lies below it (both absolute, normalised). */
export function isInside(base: string, target: string): boolean {
  const rel = relative(base, target);
  return rel === "" || (!isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${sep}`));
}
