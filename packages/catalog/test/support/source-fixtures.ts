import { fileURLToPath } from "node:url";
import { sha256Of } from "@pkg/index";
import type { CatalogConfig, SourceEntry } from "../../src/config/types.js";
import type { LoadedIndex } from "../../src/sources/types.js";
import { ocxIndexFixture as ocxIndexDir } from "./catalog-project.js";

/** The publisher's edits to an index copy, shared with the index package's reader tests. */
export { publishRoot, readJson } from "../../../index/test/support/fixtures.js";
export { ocxIndexDir };

export const schemaFixtures = fileURLToPath(
  new URL("../../../../../shared/fixtures/index-schema/fixtures/valid", import.meta.url),
);

export function catalogConfig(sources: SourceEntry[]): CatalogConfig {
  return { file: "/catalog/catalog.config.json", dir: "/catalog", sources, brand: { title: "Test" } };
}

export function pathSource(index: number, path: string, label?: string): SourceEntry {
  return { kind: "path", index, path, rawPath: path, ...(label === undefined ? {} : { label }) };
}

/** The parts of a loaded index that every source kind must agree on, with bytes as digests (small
 *  diffs, and Buffer and Uint8Array compare alike). */
export function summary(index: LoadedIndex) {
  return {
    label: index.label,
    config: index.config,
    packages: index.packages.map((pkg) => ({
      name: pkg.name,
      path: pkg.path,
      root: pkg.root,
      imageIndexes: [...pkg.imageIndexes.entries()].sort(),
      readme: pkg.readme === undefined ? undefined : sha256Of(new TextEncoder().encode(pkg.readme)),
      logo: pkg.logo === undefined ? undefined : { ...pkg.logo, bytes: sha256Of(pkg.logo.bytes) },
    })),
    files: [...index.files.entries()].map(([path, bytes]) => [path, sha256Of(bytes)]).sort(),
    warnings: index.warnings,
  };
}
