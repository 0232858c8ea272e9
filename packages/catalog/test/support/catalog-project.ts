import { mkdir, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type CliResult, runCli } from "@pkg/testkit";

/** The built CLI, as users run it (the vitest global setup runs `tsc -b` first). */
export const catalogBin = fileURLToPath(new URL("../../bin/pkg-catalog.js", import.meta.url));
/** The real published index data (62 packages), read in place. */
export const ocxIndexFixture = fileURLToPath(
  new URL("../../../../../shared/fixtures/ocx-index", import.meta.url),
);

export interface CatalogProjectOptions {
  /** The index directory, linked as `./index` beside the config (the root source). */
  index: string;
  /** More directories linked beside the config (link name to target), for more sources. */
  links?: Record<string, string>;
  /** Docs files (relative path to Markdown) written under `./docs`, which the config then names. */
  docs?: Record<string, string>;
  /** Files (relative path to content) written under `./public`, which the config then names. */
  publicFiles?: Record<string, string>;
  /** Keys merged over the generated config (`sources` and `brand` included). */
  config?: Record<string, unknown>;
}

/** Writes `catalog.config.json` (and docs) into `dir` around a linked index; returns the config path. */
export async function writeCatalogProject(dir: string, options: CatalogProjectOptions): Promise<string> {
  await mkdir(dir, { recursive: true });
  await symlink(options.index, join(dir, "index"), "dir");
  for (const [name, target] of Object.entries(options.links ?? {}))
    await symlink(target, join(dir, name), "dir");
  for (const [path, text] of Object.entries(options.docs ?? {})) {
    await mkdir(dirname(join(dir, "docs", path)), { recursive: true });
    await writeFile(join(dir, "docs", path), text);
  }
  for (const [path, text] of Object.entries(options.publicFiles ?? {})) {
    await mkdir(dirname(join(dir, "public", path)), { recursive: true });
    await writeFile(join(dir, "public", path), text);
  }
  const config = {
    sources: [{ path: "./index", root: true }],
    brand: { title: "Test Catalog" },
    ...(options.docs ? { docs: "./docs" } : {}),
    ...(options.publicFiles ? { publicDir: "./public" } : {}),
    ...options.config,
  };
  const file = join(dir, "catalog.config.json");
  await writeFile(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}

/** `pkg-catalog build <config> --out <out>` as a child process, whatever its exit code. */
export function buildWithCli(config: string, out: string): Promise<CliResult> {
  return runCli(catalogBin, ["build", config, "--out", out], { cwd: dirname(config) });
}
