// What every benchmark measures with: a command timed as a whole process, and the median of runs.
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { spawnCollect, startRegistry } from "@pkg/testkit";

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "../..");

export interface TimedRun {
  seconds: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion (from the repository root unless told), failing on a non-zero exit. */
export async function timedRun(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<TimedRun> {
  const started = performance.now();
  const result = await spawnCollect(command, args, {
    cwd: options.cwd ?? repoRoot,
    env: { ...process.env, ...options.env },
  });
  const seconds = (performance.now() - started) / 1000;
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(" ")} exited ${result.code}: ${result.stderr.slice(-2000)}`);
  }
  return { seconds, stdout: result.stdout, stderr: result.stderr };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Runs `body` against a fresh local registry (its host), stopped afterwards: each measured push
 *  gets one of its own, so no side can skip an upload. */
export async function withRegistry<T>(body: (host: string) => Promise<T>): Promise<T> {
  const registry = await startRegistry();
  try {
    return await body(registry.host);
  } finally {
    await registry.stop();
  }
}
