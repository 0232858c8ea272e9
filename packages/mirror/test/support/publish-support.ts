// Helpers for the publish tests: tiny real bundles, and a logger and sleep that record instead of
// printing and waiting. Node built-ins and @pkg/package only.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type Logger, silentTasks } from "@pkg/common";
import { createBundle } from "@pkg/package/bundle";

/** Writes `files` (relative path to content) under `dir/name/` and bundles them into `dir/name.tar.zst`. */
export async function makeBundle(dir: string, name: string, files: Record<string, string>): Promise<string> {
  const tree = join(dir, name);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(tree, path)), { recursive: true });
    await writeFile(join(tree, path), content, { mode: 0o755 });
  }
  const output = join(dir, `${name}.tar.zst`);
  await createBundle({ sourceDir: tree, output, threads: 1 });
  return output;
}

export function recordingLogger(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const log: Logger = {
    info: (message) => lines.push(message),
    warn: (message) => lines.push(`warning: ${message}`),
    progress: () => undefined,
    tasks: silentTasks,
  };
  return { log, lines };
}

/** A sleep that returns at once and remembers what it was asked to wait. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return { sleep: async (ms) => void waits.push(ms), waits };
}
