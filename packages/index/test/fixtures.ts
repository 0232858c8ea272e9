import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const schemaDir = fileURLToPath(new URL("../../../../shared/fixtures/index-schema/", import.meta.url));
export const ocxIndexDir = fileURLToPath(new URL("../../../../shared/fixtures/ocx-index/", import.meta.url));

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
