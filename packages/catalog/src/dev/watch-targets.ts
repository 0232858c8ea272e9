import type { CatalogConfig } from "../config/types.js";

/** The paths whose change triggers a rebuild. */
export interface WatchTargets {
  /** Directories watched with everything under them. */
  trees: string[];
  /** Single files: the config, the stylesheet, the logo. */
  files: string[];
}

/** The inputs a build reads from disk, per the config; remote sources have nothing to watch. */
export function watchTargets(config: CatalogConfig): WatchTargets {
  const trees = config.sources.flatMap((source) => (source.kind === "path" ? [source.path] : []));
  if (config.docs !== undefined) trees.push(config.docs);
  if (config.publicDir !== undefined) trees.push(config.publicDir);
  const files = [config.file];
  if (config.css !== undefined) files.push(config.css);
  if (config.brand.logo !== undefined) files.push(config.brand.logo);
  return { trees: [...new Set(trees)], files: [...new Set(files)] };
}
