import { readFile } from "node:fs/promises";
import { writeFileAtomically } from "@pkg/common";
import type { Metadata } from "./model.js";
import { parseMetadata } from "./parse.js";
import { serializeMetadata } from "./serialize.js";

/** Reads and validates a metadata file; errors name the path (exit 65, or the file error's own code). */
export async function readMetadataFile(path: string): Promise<Metadata> {
  return parseMetadata(await readFile(path, "utf8"), path);
}

/** Writes the canonical bytes of `metadata` (the config blob exactly), replacing `path` atomically. */
export async function writeMetadataFile(path: string, metadata: Metadata): Promise<void> {
  await writeFileAtomically(path, serializeMetadata(metadata));
}
