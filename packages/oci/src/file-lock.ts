import { open, readFile, rm, stat } from "node:fs/promises";
import { hostname } from "node:os";
import { ExitCode, PkgError, processAlive } from "@pkg/common";

/** A lock older than this is taken to be left behind by a crashed writer. */
const STALE_AFTER_MS = 30_000;
const GIVE_UP_AFTER_MS = 120_000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** True when the holder is a dead process of this host, or the lock has not been renewed for long. */
async function isStale(path: string): Promise<boolean> {
  try {
    const [content, info] = await Promise.all([readFile(path, "utf8"), stat(path)]);
    const [pid, host] = content.split("\n");
    if (host === hostname() && pid && /^[0-9]+$/.test(pid) && !processAlive(Number(pid))) return true;
    return Date.now() - info.mtimeMs > STALE_AFTER_MS;
  } catch {
    return false; // gone already, or being written: try again
  }
}

/**
 * Runs `body` while holding the lock file at `path` (created with `wx`, so only one holder at a
 * time across processes); a lock of a dead process or an old one is broken.
 */
export async function withFileLock<T>(path: string, body: () => Promise<T>): Promise<T> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(path, "wx");
      try {
        await handle.writeFile(`${process.pid}\n${hostname()}\n`);
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (await isStale(path)) {
      await rm(path, { force: true });
      continue;
    }
    if (Date.now() - started > GIVE_UP_AFTER_MS) {
      throw new PkgError(ExitCode.Transient, `${path} is held by another writer for too long`);
    }
    await sleep(Math.min(5 * 2 ** Math.min(attempt, 5), 100) * (0.5 + Math.random()));
  }
  try {
    return await body();
  } finally {
    await rm(path, { force: true });
  }
}
