import { access } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { ExitCode, PkgError } from "@pkg/common";

/** The bundled browser files (scripts/bundle-client.mjs), served from `/assets/`. */
export const clientFiles = [
  "theme.js",
  "site.js",
  "catalog.js",
  "catalog-search.js",
  "palette.js",
  "site.css",
] as const;

/** Same directory from `src/build` (tests) and `dist/build` (the installed CLI). */
export const clientDir = fileURLToPath(new URL("../../dist/client/", import.meta.url));

export async function checkClientAssets(): Promise<void> {
  for (const file of clientFiles) {
    try {
      await access(`${clientDir}${file}`);
    } catch {
      throw new PkgError(
        ExitCode.Failed,
        `the site's browser assets are missing (${clientDir}${file}); build the package first: node packages/catalog/scripts/bundle-client.mjs`,
      );
    }
  }
}
