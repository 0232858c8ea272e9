// Checking and converting the arguments a builtin receives.
import { StarlarkError } from "../errors.js";
import { repr } from "../values/format.js";
import { typeName, type Value } from "../values/value.js";

export function wrongType(what: string, v: Value, want: string): StarlarkError {
  return new StarlarkError(`${what}: got ${typeName(v)}, want ${want}`);
}

/** An int argument as a JS number (fails for other types and for magnitudes beyond 2^53). */
export function intArg(v: Value, what: string): number {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") throw new StarlarkError(`${what}: ${v} out of range`);
  throw wrongType(what, v, "int");
}

/** An optional int argument: None or absent give `dflt`. */
export function optIntArg(v: Value | undefined, what: string, dflt: number): number {
  return v === undefined || v === null ? dflt : intArg(v, what);
}

export function strArg(v: Value, what: string): string {
  if (typeof v === "string") return v;
  throw wrongType(what, v, "string");
}

export function optStrArg(v: Value | undefined, what: string): string | undefined {
  return v === undefined || v === null ? undefined : strArg(v, what);
}

function rangeBound(v: Value | undefined, dflt: number, n: number, what: string): number {
  if (v === undefined || v === null) return dflt;
  let i: number;
  if (typeof v === "bigint") i = v > 0n ? n : 0;
  else i = intArg(v, what);
  if (i < 0) i += n;
  return i < 0 ? 0 : i > n ? n : i;
}

/** A substring range: `start` and `end` (int or None) interpreted like slice indices over length `n`. */
export function indexRange(
  n: number,
  start: Value | undefined,
  end: Value | undefined,
  what: string,
): [number, number] {
  const s = rangeBound(start, 0, n, `${what}: start`);
  const e = rangeBound(end, n, n, `${what}: end`);
  return [s, e < s ? s : e];
}

export { repr };
