import { availableParallelism } from "node:os";
import type { Field } from "./field.js";

/** `concurrency`: parallelism, listing rate limit and push retry budget. */
export interface Concurrency {
  max_downloads: number;
  max_bundles: number;
  rate_limit_ms: number;
  /** Extra push attempts: total attempts = max_retries + 1. */
  max_retries: number;
  /** Threads per bundle task; 0 = split the cores across max_bundles. */
  compression_threads: number;
}

/** Half the cores, at least 1; 2 when the count is unknown. */
export function defaultMaxBundles(cores: number | undefined): number {
  if (cores === undefined || !Number.isSafeInteger(cores) || cores < 1) return 2;
  return Math.max(1, Math.floor(cores / 2));
}

function detectedCores(): number | undefined {
  try {
    return availableParallelism();
  } catch {
    return undefined;
  }
}

/** What an absent `concurrency` (or `{}`) means on this machine. */
export function defaultConcurrency(cores: number | undefined = detectedCores()): Concurrency {
  return {
    max_downloads: 8,
    max_bundles: defaultMaxBundles(cores),
    rate_limit_ms: 0,
    max_retries: 3,
    compression_threads: 0,
  };
}

/** Smallest accepted value of each setting. */
const minimums: Record<keyof Concurrency, number> = {
  max_downloads: 1,
  max_bundles: 1,
  rate_limit_ms: 0,
  max_retries: 0,
  compression_threads: 0,
};

export function readConcurrency(field: Field): Concurrency | undefined {
  const map = field.map();
  if (!map) return undefined;
  // max_pushes is a setting of older tools: accepted so their specs load, and ignored (pushes run one version at a time)
  map.only([...Object.keys(minimums), "max_pushes"]);
  const concurrency = defaultConcurrency();
  let ok = true;
  for (const key of Object.keys(minimums) as Array<keyof Concurrency>) {
    const value = map.get(key);
    if (!value.present) continue;
    const number = value.integer({ min: minimums[key] });
    if (number === undefined) ok = false;
    else concurrency[key] = number;
  }
  const pushes = map.get("max_pushes");
  if (pushes.present && pushes.integer({ min: 1 }) === undefined) ok = false;
  return ok ? concurrency : undefined;
}
