import { mkdir, open, readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ExitCode, PkgError, writeAtomically } from "@pkg/common";
import { addTestCase, type SuiteTarget } from "./merge.js";
import type { JUnitCase, JUnitReport } from "./model.js";
import { parseJUnit } from "./read.js";
import { renderJUnit } from "./write.js";

/** Reads and parses a JUnit file; a missing file is the system error (ENOENT), a malformed one 65. */
export async function readJUnitFile(path: string): Promise<JUnitReport> {
  return parseJUnit(await readFile(path, "utf8"), path);
}

/**
 * Adds `testCase` to the suite `target` names in the JUnit file at `path` (created with its
 * directory when missing; a case of the same name and classname is replaced) and returns what
 * was written. The file is read, merged and written to a temporary name renamed onto it, under a
 * lock file beside it, so a reader never sees half a file and writers running at once each keep
 * their case. A file that is there but not JUnit is a data error (65) and is left as it is.
 */
export async function addTestCaseToFile(
  path: string,
  target: SuiteTarget,
  testCase: JUnitCase,
): Promise<JUnitReport> {
  await mkdir(dirname(path), { recursive: true });
  return withLock(path, async () => {
    const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    const current = text === undefined ? { suites: [] } : parseJUnit(text, path);
    const next = addTestCase(current, target, testCase);
    await writeAtomically(path, "JUnit file", (temp) => writeFile(temp, renderJUnit(next)));
    return next;
  });
}

/** A lock file older than this was left by a writer that died: merging one case takes far less. */
const STALE_LOCK_MS = 60_000;
const LOCK_WAIT_MS = 120_000;

async function withLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  const started = Date.now();
  for (;;) {
    const handle = await open(lock, "wx").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "EEXIST") return undefined;
      throw error;
    });
    if (handle !== undefined) {
      await handle.close();
      break;
    }
    const info = await stat(lock).catch(() => undefined);
    if (info !== undefined && Date.now() - info.mtimeMs > STALE_LOCK_MS) {
      await rm(lock, { force: true });
      continue;
    }
    if (Date.now() - started > LOCK_WAIT_MS)
      throw new PkgError(ExitCode.IoError, `${lock}: another writer holds this JUnit file's lock`);
    await sleep(10 + Math.floor(Math.random() * 20));
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}
