import { chmod, readdir, rm } from "node:fs/promises";
import { join } from "node:path";

/**
 * Removes a directory tree, also one holding read-only directories (a layer may have them, and
 * unlinking inside one is refused to anyone but root): on EACCES or EPERM every directory is
 * made writable by its owner and the removal tried again.
 */
export async function removeTree(path: string): Promise<void> {
  try {
    await rm(path, { recursive: true, force: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EACCES" && code !== "EPERM") throw error;
    await openUp(path);
    await rm(path, { recursive: true, force: true });
  }
}

async function openUp(dir: string): Promise<void> {
  await chmod(dir, 0o700).catch(() => undefined);
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) if (entry.isDirectory()) await openUp(join(dir, entry.name));
}
