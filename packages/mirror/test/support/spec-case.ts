import { stringify } from "yaml";

/**
 * One row of the conformance table: a spec (and files beside it) and what loading it must give.
 * Rows are data; `conformance.test.ts` runs them all.
 */
export interface ConformanceCase {
  /** The rule, in words, as the spec states it. */
  rule: string;
  /** The mirror.yml text. Build it with `spec()` / `pythonSpec()` or write YAML by hand. */
  yaml: string;
  /** Files to create relative to the spec's directory (metadata, CATALOG.md, parent specs...). */
  files?: Record<string, string>;
  /** Symbolic links to create relative to the spec's directory: link path to target, as written. */
  symlinks?: Record<string, string>;
  /**
   * 0 for accepted; else the load's exit code: 64 when any problem is a usage problem, else 65.
   */
  exit: 0 | 64 | 65;
  /**
   * For refusals: the key path of the problem deciding the exit code (exact match): the first
   * usage problem when there is one, else the first problem.
   */
  path?: string;
  /** For refusals: a pattern the deciding problem's message must match. */
  message?: RegExp;
  /** For refusals: the key path of every problem, in file order, when the row checks them all. */
  problems?: string[];
  /** For accepted specs: a check on the loaded model. */
  check?: (spec: Record<string, unknown>, warnings: Array<{ keyPath: string; message: string }>) => void;
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A mapping nested inside a spec: unlike a top-level `SpecObject`, no key is `undefined`. */
export type Fields = { [key: string]: Json };
export type SpecObject = { [key: string]: Json | undefined };

/** A valid, minimal forgeone_release spec. */
export const baseSpec: SpecObject = {
  name: "tool",
  target: { registry: "ghcr.io", repository: "acme/tools/tool" },
  source: { type: "forgeone_release", owner: "acme", repo: "tool" },
  assets: { "linux/amd64": ["tool-.*-linux-amd64\\.tar\\.gz"] },
};

/** The committed lock a pylock spec names as `path: pylock.toml`; the loader checks that it exists. */
export const LOCK_FILE: Record<string, string> = { "pylock.toml": 'lock-version = "1.0"\n' };

/** A valid, minimal pypi spec. */
export const basePythonSpec: SpecObject = {
  name: "pycowsay",
  target: { registry: "ocx.sh", repository: "pycowsay" },
  source: { type: "pypi" },
  python: { version: "3.13.1", abi: "cp313", interpreter_package: "ocx.sh/python/cpython:3.13.1" },
  wheels: { "linux/amd64": null },
  platforms: { "linux/amd64": { runner: "ubuntu-latest" } },
};

/** The base spec with top-level keys replaced (`undefined` removes a key), as YAML. */
export function spec(overrides: SpecObject = {}, base: SpecObject = baseSpec): string {
  const merged: SpecObject = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete merged[key];
    else merged[key] = value;
  }
  return stringify(merged, { lineWidth: 0 });
}

export function pythonSpec(overrides: SpecObject = {}): string {
  return spec(overrides, basePythonSpec);
}
