import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { usageError } from "@pkg/common";
import { CATALOG_GENERATOR, CATALOG_JSON_START } from "../site/model/catalog-json.js";

/**
 * A build replaces its output directory wholesale, so it only replaces what is clearly a site it
 * made: a directory that does not exist yet, is empty, or holds the `catalog.json` of a previous
 * build. Anything else (a home directory, a project folder given by mistake) is refused, never
 * deleted.
 */
export async function assertReplaceable(outDir: string, given: string): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(outDir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return;
    if (code === "ENOTDIR") throw usageError(`--out ${given} exists and is not a directory`);
    throw error;
  }
  if (entries.length === 0 || (await isPreviousSite(outDir))) return;
  throw usageError(
    `--out ${given} is not empty and holds no site built by ${CATALOG_GENERATOR}; refusing to replace it (choose an empty or new directory)`,
  );
}

async function isPreviousSite(outDir: string): Promise<boolean> {
  try {
    const text = await readFile(join(outDir, "catalog.json"), "utf8");
    // the start tells a file as written apart without parsing megabytes (10,000 packages)
    if (text.startsWith(CATALOG_JSON_START)) return true;
    // reformatted since, say: read it whole
    const catalog = JSON.parse(text) as unknown;
    return typeof catalog === "object" && catalog !== null && "generator" in catalog
      ? catalog.generator === CATALOG_GENERATOR
      : false;
  } catch {
    return false;
  }
}
