import { resolve } from "node:path";
import { isInside } from "@pkg/common";
import { ConfigError } from "./errors.js";

export { isInside };

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
