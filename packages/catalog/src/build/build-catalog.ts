import { dirname, resolve } from "node:path";
import { loadCatalogConfig } from "../config/load.js";
import type { CatalogConfig } from "../config/types.js";
import { buildSiteModel } from "../site/model/site-model.js";
import { readSources } from "../sources/read-sources.js";
import { checkOutputDir, withAtomicOutput } from "./atomic-output.js";
import { checkClientAssets } from "./client-assets.js";
import { assertReplaceable } from "./previous-output.js";
import type { BuildReport } from "./report.js";
import { writeSite } from "./write-site.js";

export interface BuildOptions {
  configPath: string;
  outDir: string;
  cacheDir?: string;
  warn?: (line: string) => void;
  log?: (line: string) => void;
}

/** Every directory the build reads from, which the output must never replace. */
function inputDirs(config: CatalogConfig, cacheDir: string | undefined): string[] {
  const dirs = [config.dir];
  for (const source of config.sources) if (source.kind === "path") dirs.push(source.path);
  for (const path of [config.docs, config.publicDir, config.css && dirname(config.css), cacheDir]) {
    if (path !== undefined && path !== "") dirs.push(path);
  }
  return dirs;
}

/**
 * Loads the config, reads every source and writes the site into `outDir` atomically: on any failure
 * the previous output is left as it was and no temporary directory remains.
 */
export async function buildCatalog(options: BuildOptions): Promise<BuildReport> {
  const started = performance.now();
  const warnings: string[] = [];
  const warn = (line: string) => {
    warnings.push(line);
    options.warn?.(line);
  };
  const log = options.log ?? (() => {});
  const outDir = resolve(options.outDir);
  const config = await loadCatalogConfig(options.configPath);
  checkOutputDir(outDir, inputDirs(config, options.cacheDir));
  await assertReplaceable(outDir, options.outDir);
  await checkClientAssets();
  log(`reading ${config.sources.length} ${config.sources.length === 1 ? "source" : "sources"}`);
  const indexes = await readSources(config, {
    warn,
    ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
  });
  const fileCounts = indexes.map((index) => index.files.size);
  const model = buildSiteModel(config, indexes, warn);
  const written = await withAtomicOutput(outDir, (dir) =>
    writeSite(dir, { config, indexes, model, warn, log }),
  );
  return {
    outDir,
    indexes: model.indexes.map((index, i) => ({
      label: index.label,
      packages: index.packages.length,
      files: fileCounts[i] ?? 0,
    })),
    packages: model.indexes.reduce((n, index) => n + index.packages.length, 0),
    pages: written.pages,
    files: written.files,
    warnings,
    durationMs: Math.round(performance.now() - started),
  };
}
