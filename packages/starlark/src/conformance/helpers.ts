// Shorthands for writing conformance tables.

import type { ExecOptions } from "../exec.js";
import type { Case, ErrorKind } from "./case.js";

/** An expression and the repr of its value. */
export function v(expr: string, want: string): Case {
  return { expr, want };
}

/** An expression and the error it raises. */
export function e(expr: string, kind: ErrorKind, fragment: string, pos?: string): Case {
  return { expr, error: [kind, fragment, pos] };
}

/** A file and the repr of its global `result` (undefined: only that it runs). */
export function f(file: string, want?: string, options?: ExecOptions): Case {
  return { file, want, options };
}

/** A file and the error it raises. */
export function fe(
  file: string,
  kind: ErrorKind,
  fragment: string,
  pos?: string,
  options?: ExecOptions,
): Case {
  return { file, error: [kind, fragment, pos], options };
}
