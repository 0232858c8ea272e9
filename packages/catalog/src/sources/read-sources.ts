import type { WalkedIndex } from "@pkg/index/read";
import type { CatalogConfig, SourceEntry } from "../config/types.js";
import { checkLabelsUnique, resolveLabel } from "./labels.js";
import { readGitSource } from "./read-git.js";
import { readPathSource, type WalkHooks } from "./read-path.js";
import type { UrlReadOptions } from "./read-url.js";
import type { LoadedIndex } from "./types.js";

export interface ReadSourcesOptions extends Omit<UrlReadOptions, "concurrency"> {
  /** Receives each warning line (skipped package or file) once a source is read. */
  warn: (line: string) => void;
  /** Files (path, git) or requests (url) in flight at once; defaults 32 and 16. */
  concurrency?: number;
  /** The walk hooks of each source (a build streaming files out, or reusing packages it holds). */
  walkHooks?: (source: SourceEntry) => WalkHooks;
}

function readSource(source: SourceEntry, sourcesOptions: ReadSourcesOptions): Promise<WalkedIndex> {
  const walk = sourcesOptions.walkHooks?.(source);
  const options = walk === undefined ? sourcesOptions : { ...sourcesOptions, walk };
  switch (source.kind) {
    case "path":
      return readPathSource(source, options);
    case "url":
      // the HTTP client is loaded only by a catalog that has url sources
      return import("./read-url.js").then(({ readUrlSource }) => readUrlSource(source, options));
    case "git":
      return readGitSource(source, options);
  }
}

/** Reads every source of the catalog, in order, and settles their labels. */
export async function readSources(
  config: CatalogConfig,
  options: ReadSourcesOptions,
): Promise<LoadedIndex[]> {
  const indexes: LoadedIndex[] = [];
  for (const source of config.sources) {
    const walked = await readSource(source, options);
    const label = resolveLabel(source, [
      ...walked.packages.map((p) => p.label),
      ...walked.reused.map((p) => p.label),
    ]);
    for (const line of walked.warnings) options.warn(line);
    indexes.push({
      label,
      sourceIndex: source.index,
      config: walked.config,
      packages: walked.packages.map((p) => p.pkg),
      files: walked.files,
      warnings: walked.warnings,
    });
  }
  checkLabelsUnique(indexes);
  return indexes;
}
