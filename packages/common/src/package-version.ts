import { readFileSync } from "node:fs";

/**
 * The `version` of the package.json at `url` (given relative to the caller's module, e.g.
 * `new URL("../../package.json", import.meta.url)`): a tool's own version, for `--version`.
 */
export function readPackageVersion(url: URL): string {
  const manifest = JSON.parse(readFileSync(url, "utf8")) as { version?: unknown };
  if (typeof manifest.version !== "string") throw new Error(`${url.pathname} has no version`);
  return manifest.version;
}
