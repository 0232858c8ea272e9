import { isAbsolute, relative, resolve, sep } from "node:path";
import { ConfigError } from "./errors.js";

/** Whether `target` is `dir` or below it, by path arithmetic alone (symlinks are not followed). */
export function isInside(dir: string, target: string): boolean {
  const rel = relative(dir, target);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** Resolves a config-relative path and refuses it when it lands outside the config directory. */
export function containedPath(dir: string, raw: string, keyPath: string): string {
  const resolved = resolve(dir, raw);
  if (!isInside(dir, resolved)) {
    throw new ConfigError(
      "PATH_ESCAPE",
      `${keyPath} ${JSON.stringify(raw)} resolves to ${resolved}, outside the config directory ${dir}`,
      keyPath,
    );
  }
  return resolved;
}
