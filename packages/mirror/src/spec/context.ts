import { existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { SpecDiagnostic } from "./diagnostics.js";

/** What section readers may ask of the file system, resolved the way the spec says. */
export interface SpecFiles {
  /** Whether a regular file exists at an absolute path. */
  isFile(path: string): boolean;
  /** Whether a directory exists at an absolute path. */
  isDirectory(path: string): boolean;
  /** A small text file's contents, or undefined when it cannot be read. */
  readText(path: string): string | undefined;
}

export const diskFiles: SpecFiles = {
  isFile(path) {
    try {
      return statSync(path).isFile();
    } catch {
      return false;
    }
  },
  isDirectory(path) {
    try {
      return statSync(path).isDirectory();
    } catch {
      return false;
    }
  },
  readText(path) {
    try {
      return existsSync(path) ? readFileSync(path, "utf8") : undefined;
    } catch {
      return undefined;
    }
  },
};

/** What every section reader gets beside its field. */
export interface SectionContext {
  /** Directory of the spec file being loaded: `metadata`, `catalog` and generator paths resolve here. */
  specDir: string;
  /** The repository root: `tests[].script` resolves here, and `extends` must stay inside it. */
  repoRoot: string;
  files: SpecFiles;
  /** Advisory findings that do not fail the load (e.g. `build_timestamp: none` with cascade). */
  warnings: SpecDiagnostic[];
}

export function resolveIn(dir: string, path: string): string {
  return isAbsolute(path) ? path : resolve(dir, path);
}
