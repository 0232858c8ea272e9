// The conformance table format and its runner. A case evaluates an expression, or executes a file
// whose global `result` is the value checked; it expects a value (its repr), or an error of a kind
// with a message fragment and (optionally) a position.

import { StarlarkError, StarlarkEvalError, StarlarkSyntaxError } from "../errors.js";
import { type ExecOptions, evalExpression, execModule } from "../exec.js";
import { hostFunction } from "../host/host.js";
import { equals } from "../values/compare.js";
import { repr } from "../values/format.js";
import { freezeValue } from "../values/list.js";
import type { Value } from "../values/value.js";

export type ErrorKind = "syntax" | "resolve" | "error" | "fail" | "cancelled" | "internal";

export interface Case {
  /** An expression to evaluate. */
  expr?: string;
  /** A file to execute; the value checked is its global `result` (if `want` is given). */
  file?: string;
  /** The repr of the expected value. */
  want?: string;
  /** The expected error: kind, a fragment of its message, and `line:col` when given. */
  error?: [ErrorKind, string, string?];
  /** What print() wrote, one line per call. */
  prints?: string[];
  options?: ExecOptions;
}

export interface Outcome {
  value?: string;
  error?: { kind: ErrorKind; message: string; pos: string };
  printed: string[];
}

/** Test helpers every case may use: assert_eq(got, want), freeze(x). */
export const testPredeclared = {
  assert_eq: hostFunction("assert_eq(got, want)", ({ got, want }) => {
    if (!equals(got as Value, want as Value)) {
      throw new StarlarkError(`assert_eq: got ${repr(got as Value)}, want ${repr(want as Value)}`, {
        tag: "assert",
      });
    }
    return null;
  }),
  freeze: hostFunction("freeze(x)", ({ x }) => {
    freezeValue(x as Value);
    return x as Value;
  }),
};

export function runCase(c: Case): Outcome {
  const printed: string[] = [];
  const options: ExecOptions = { ...c.options, print: (m) => printed.push(m) };
  const req = { file: "case.star", predeclared: testPredeclared, options };
  try {
    if (c.expr !== undefined) return { value: repr(evalExpression({ ...req, source: c.expr })), printed };
    const m = execModule({ ...req, source: c.file ?? "" });
    const result = m.globals.get("result");
    return { value: result === undefined ? undefined : repr(result), printed };
  } catch (e) {
    if (e instanceof StarlarkSyntaxError) {
      const p = e.diagnostics[0]?.pos;
      return { error: { kind: e.kind, message: e.message, pos: p ? `${p.line}:${p.col}` : "" }, printed };
    }
    if (e instanceof StarlarkEvalError) {
      return { error: { kind: e.kind, message: e.message, pos: `${e.pos.line}:${e.pos.col}` }, printed };
    }
    throw e;
  }
}

/** The mismatch between a case and what happened, or undefined when they agree. */
export function checkCase(c: Case): string | undefined {
  const o = runCase(c);
  if (c.error) {
    const [kind, fragment, pos] = c.error;
    if (!o.error) return `want ${kind} error containing ${JSON.stringify(fragment)}, got value ${o.value}`;
    if (
      o.error.kind !== kind ||
      !o.error.message.includes(fragment) ||
      (pos !== undefined && o.error.pos !== pos)
    ) {
      return `want ${kind} error at ${pos ?? "?"} containing ${JSON.stringify(fragment)}, got ${o.error.kind} at ${o.error.pos}: ${o.error.message}`;
    }
  } else if (o.error) {
    return `unexpected ${o.error.kind} error at ${o.error.pos}: ${o.error.message}`;
  } else if (c.want !== undefined && o.value !== c.want) {
    return `want ${c.want}, got ${o.value}`;
  }
  if (c.prints && JSON.stringify(o.printed) !== JSON.stringify(c.prints)) {
    return `want prints ${JSON.stringify(c.prints)}, got ${JSON.stringify(o.printed)}`;
  }
  return undefined;
}
