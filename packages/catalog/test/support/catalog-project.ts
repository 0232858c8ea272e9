import { cp, mkdir, writeFile } from "node:fs/promises";
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
  /** The index directory, copied to `./index` beside the config (the root source). A copy, not a
   *  link: the loader refuses a path source whose real path leaves the config's directory. */
  index: string;
  /** More directories copied beside the config (name to source directory), for more sources. */
  links?: Record<string, string>;
  /** Docs files (relative path to Markdown) written under `./docs`, which the config then names. */
  docs?: Record<string, string>;
  /** Files (relative path to content) written under `./public`, which the config then names. */
  publicFiles?: Record<string, string>;
  /** Keys merged over the generated config (`sources` and `brand` included). */
  config?: Record<string, unknown>;
}

/** Writes `catalog.config.json` (and docs) into `dir` around a copied index; returns the config
 *  path. Links inside the copied trees stay links, to the same targets. */
export async function writeCatalogProject(dir: string, options: CatalogProjectOptions): Promise<string> {
  await mkdir(dir, { recursive: true });
  await cp(options.index, join(dir, "index"), { recursive: true });
  for (const [name, source] of Object.entries(options.links ?? {}))
    await cp(source, join(dir, name), { recursive: true });
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

/** What a file of the build memos' directory is: a memo file (`<hash>.json`), a memo's base file,
 *  or something else (a journal, a pending memo). */
export function memoFileKind(name: string): "memo" | "base" | string {
  if (/^[0-9a-f]{32}\.json$/.test(name)) return "memo";
  if (/^[0-9a-f]{32}\.base-[0-9a-f]{16}\.json$/.test(name)) return "base";
  return name;
}
