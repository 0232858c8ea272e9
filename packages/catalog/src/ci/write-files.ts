import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { writeFileAtomically } from "@pkg/common";
import type { RenderedFile } from "./rendered-file.js";

/** Writes each file under `baseDir`, creating directories; a file is replaced whole or not at all. */
export async function writeRenderedFiles(baseDir: string, files: readonly RenderedFile[]): Promise<void> {
  for (const file of files) {
    const target = join(baseDir, file.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFileAtomically(target, file.content);
  }
}
