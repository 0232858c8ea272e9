import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { RenderedFile } from "./rendered-file.js";

export type CiFileState = "up-to-date" | "differs" | "missing";

export interface CiFileStatus {
  path: string;
  state: CiFileState;
}

/** Compares what is on disk under `baseDir` with what would be rendered, byte for byte. */
export async function checkRenderedFiles(
  baseDir: string,
  files: readonly RenderedFile[],
): Promise<CiFileStatus[]> {
  return Promise.all(files.map(async (file) => ({ path: file.path, state: await stateOf(baseDir, file) })));
}

async function stateOf(baseDir: string, file: RenderedFile): Promise<CiFileState> {
  let onDisk: string;
  try {
    onDisk = await readFile(join(baseDir, file.path), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return "missing";
    if (code === "EISDIR") return "differs";
    throw error;
  }
  return onDisk === file.content ? "up-to-date" : "differs";
}
