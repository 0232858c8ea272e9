import { readdirSync, readFileSync } from "node:fs";
import { cp, readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { sha256Of } from "../../src/index.js";
import {
  createFsReader,
  DEFAULT_FILE_CONCURRENCY,
  type WalkedIndex,
  walkIndex,
} from "../../src/read/index.js";

export const schemaDir = fileURLToPath(
  new URL("../../../../../shared/fixtures/index-schema/", import.meta.url),
);
export const ocxIndexDir = fileURLToPath(
  new URL("../../../../../shared/fixtures/ocx-index/", import.meta.url),
);

/** Every file below `dir`, index-relative with `/` separators. */
export function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split("\\").join("/"))
    .sort();
}

export function readBytes(path: string): Uint8Array {
  return readFileSync(path);
}

export async function readJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
}

/** A writable copy of the real index under `dir` (a temp dir, never the repository). */
export async function copyIndex(dir: string): Promise<string> {
  const to = join(dir, "index");
  await cp(ocxIndexDir, to, { recursive: true });
  return to;
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

/** The prefix of the walk's warning lines in these tests. */
export const SOURCE = "sources[0]";

/** Walks a local index tree as a `path` source does. */
export async function walkDirectory(dir: string): Promise<WalkedIndex> {
  return walkIndex(await createFsReader(dir), { source: SOURCE, concurrency: DEFAULT_FILE_CONCURRENCY });
}
