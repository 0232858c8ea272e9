import { resolve } from "node:path";
import { isInside } from "@pkg/common";
import { ConfigError } from "./errors.js";

export { isInside };

/** What a path key must name on disk. */
export type PathKind = "file" | "directory";

/** A config key naming a local file or directory: as written, and resolved against the config's
 *  directory (already held inside it by its text). */
export interface NamedPath {
  keyPath: string;
  raw: string;
  resolved: string;
  /** What it must be. Absent: it may also be missing (a path source: reading it says so). */
  kind?: PathKind;
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
