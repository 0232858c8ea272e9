// Equality and ordering of values.
import { StarlarkError } from "../errors.js";
import { SFloat } from "./float.js";
import { compareIntFloat } from "./int.js";
import { typeName, type Value } from "./value.js";

/** Nesting beyond this fails (a list that contains itself). */
export const MAX_COMPARE_DEPTH = 1000;

export function checkDepth(depth: number): void {
  if (depth > MAX_COMPARE_DEPTH) throw new StarlarkError("comparison exceeded maximum recursion depth");
}

/** `a == b`. */
export function equals(a: Value, b: Value, depth = 0): boolean {
  if (a === b) return true;
  switch (typeof a) {
    case "number":
    case "bigint":
      return b instanceof SFloat && compareIntFloat(a, b.v) === 0;
    case "object":
      return a?.equals(b, depth) ?? false;
    default:
      return false;
  }
}

function unordered(op: string, a: Value, b: Value): StarlarkError {
  return new StarlarkError(`unsupported comparison: ${typeName(a)} ${op} ${typeName(b)}`);
}

/** Ordered comparison: negative, zero or positive; fails for values that are not ordered. */
export function compare(a: Value, b: Value, op = "<", depth = 0): number {
  switch (typeof a) {
    case "number":
    case "bigint":
      if (typeof b === "number" || typeof b === "bigint") return a < b ? -1 : a > b ? 1 : 0;
      if (b instanceof SFloat) return compareIntFloat(a, b.v);
      break;
    case "string":
      if (typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
      break;
    case "boolean":
      if (typeof b === "boolean") return a === b ? 0 : a ? 1 : -1;
      break;
    case "object":
      if (a !== null && b !== null) {
        const c = a.compareTo(b, depth);
        if (c !== undefined) return c;
      }
      break;
  }
  throw unordered(op, a, b);
}

/** `a < b` etc. by operator. */
export function compareOp(op: string, a: Value, b: Value): boolean {
  switch (op) {
    case "==":
      return equals(a, b);
    case "!=":
      return !equals(a, b);
    case "<":
      return compare(a, b, op) < 0;
    case "<=":
      return compare(a, b, op) <= 0;
    case ">":
      return compare(a, b, op) > 0;
    default:
      return compare(a, b, op) >= 0;
  }
}
