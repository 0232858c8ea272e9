import { relative } from "node:path";
import { loadCatalogConfig } from "../config/load.js";
import { type CiFileStatus, checkRenderedFiles } from "./check-files.js";
import { renderCiFiles } from "./render.js";
import { writeRenderedFiles } from "./write-files.js";

export interface CiRun {
  /** Absolute path of the config file; file paths are relative to its directory. */
  config: string;
  files: CiFileStatus[];
}

/** Loads the config and renders its CI files; with `check`, compares them with the disk instead
 *  of writing them (every file then reads `up-to-date` after a write). */
export async function runCi(configPath: string, options: { check: boolean }): Promise<CiRun> {
  const config = await loadCatalogConfig(configPath);
  const files = renderCiFiles(config, relative(config.dir, config.file));
  if (options.check) return { config: config.file, files: await checkRenderedFiles(config.dir, files) };
  await writeRenderedFiles(config.dir, files);
  return { config: config.file, files: files.map((file) => ({ path: file.path, state: "up-to-date" })) };
}
