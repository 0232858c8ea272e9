import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sha256Of } from "@pkg/index";
import type { CatalogConfig, SourceEntry } from "../../src/config/types.js";
import type { LoadedIndex } from "../../src/sources/types.js";
import { ocxIndexFixture as ocxIndexDir } from "../support/catalog-project.js";

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

/** A writable copy of the real index under `dir` (a temp dir, never the repository). */
export async function copyIndex(dir: string): Promise<string> {
  const to = join(dir, "index");
  await cp(ocxIndexDir, to, { recursive: true });
  return to;
}

export async function readJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
}

/** Writes `bytes` as the root of `key` and makes c/index.json name their digest (adding the key
 *  when new), as a publisher would. */
export async function publishRoot(indexDir: string, key: string, bytes: Uint8Array | string): Promise<void> {
  const data = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
  await writeFile(join(indexDir, "p", `${key}.json`), data);
  await setCatalogDigest(indexDir, key, sha256Of(data));
}

export async function setCatalogDigest(indexDir: string, key: string, digest: string): Promise<void> {
  const path = join(indexDir, "c", "index.json");
  const catalog = await readJson(path);
  (catalog.packages as Record<string, string>)[key] = digest;
  await writeFile(path, JSON.stringify(catalog, null, 2));
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
