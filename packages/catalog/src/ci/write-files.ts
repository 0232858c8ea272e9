import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { RenderedFile } from "./rendered-file.js";

/** Writes each file under `baseDir`, creating directories; a file is replaced whole or not at all. */
export async function writeRenderedFiles(baseDir: string, files: readonly RenderedFile[]): Promise<void> {
  for (const file of files) {
    const target = join(baseDir, file.path);
    await mkdir(dirname(target), { recursive: true });
    const temp = `${target}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      await writeFile(temp, file.content);
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }
}
