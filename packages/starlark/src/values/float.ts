// Floats: IEEE 754 doubles, boxed so that they stay distinct from ints. NaN equals NaN and sorts
// above +Inf (the spec's total order).
import { StarlarkError } from "../errors.js";
import { compareIntFloat, type Int, intToFloat } from "./int.js";
import { type DictKey, type Printer, SValue, type Value } from "./value.js";

export class SFloat extends SValue {
  constructor(readonly v: number) {
    super();
  }
  override typeName(): string {
    return "float";
  }
  override writeRepr(out: Printer): void {
    out.write(formatFloatG(this.v));
  }
  override truth(): boolean {
    return this.v !== 0;
  }
  override hashKey(): DictKey {
    const v = this.v;
    if (Number.isInteger(v) && !Number.isSafeInteger(v)) return BigInt(v);
    return v === 0 ? 0 : v;
  }
  override equals(other: Value): boolean {
    if (other instanceof SFloat) return other.v === this.v || (Number.isNaN(other.v) && Number.isNaN(this.v));
    if (typeof other === "number" || typeof other === "bigint") return compareIntFloat(other, this.v) === 0;
    return false;
  }
  override compareTo(other: Value): number | undefined {
    if (other instanceof SFloat) return compareFloats(this.v, other.v);
    if (typeof other === "number" || typeof other === "bigint") return -compareIntFloat(other, this.v);
    return undefined;
  }
}

export function compareFloats(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  if (a === b) return 0;
  const an = Number.isNaN(a);
  const bn = Number.isNaN(b);
  return an && bn ? 0 : an ? 1 : -1;
}

export function float(v: number): SFloat {
  return new SFloat(v);
}

/** A number operand as a JS float (ints converted exactly or failing when too large). */
export function toFloat(v: Int | SFloat): number {
  return v instanceof SFloat ? v.v : intToFloat(v);
}

/** The shortest round-trip digits and the decimal exponent of a finite non-zero magnitude. */
function shortestDigits(a: number): { digits: string; exp: number } {
  const e = a.toExponential(); // "d.ddde+x"
  const at = e.indexOf("e");
  return { digits: e.slice(0, at).replace(".", ""), exp: Number(e.slice(at + 1)) };
}

function expSuffix(exp: number, upper: boolean): string {
  const sign = exp < 0 ? "-" : "+";
  const mag = Math.abs(exp);
  return `${upper ? "E" : "e"}${sign}${mag < 10 ? "0" : ""}${mag}`;
}

/**
 * `str(float)` and `%g`: the shortest digits that round-trip, in exponent form when the decimal
 * exponent is below -4 or at least 6, always showing a `.` or an exponent; `+inf`, `-inf`, `nan`.
 */
export function formatFloatG(v: number, upper = false): string {
  if (!Number.isFinite(v)) {
    const s = Number.isNaN(v) ? "nan" : v > 0 ? "+inf" : "-inf";
    return upper ? s.toUpperCase() : s;
  }
  const neg = v < 0 || Object.is(v, -0);
  if (v === 0) return neg ? "-0.0" : "0.0";
  const { digits, exp } = shortestDigits(Math.abs(v));
  let body: string;
  if (exp < -4 || exp >= 6) {
    body = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    body += expSuffix(exp, upper);
  } else if (exp < 0) {
    body = `0.${"0".repeat(-exp - 1)}${digits}`;
  } else if (digits.length > exp + 1) {
    body = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  } else {
    body = `${digits}${"0".repeat(exp + 1 - digits.length)}.0`;
  }
  return neg ? `-${body}` : body;
}

/** `%e`: six digits after the point, a two-digit exponent at least. */
export function formatFloatE(v: number, upper: boolean): string {
  if (!Number.isFinite(v)) return formatFloatG(v, upper);
  const s = v.toExponential(6);
  const at = s.indexOf("e");
  return s.slice(0, at) + expSuffix(Number(s.slice(at + 1)), upper);
}

/** `%f`: six digits after the point. */
export function formatFloatF(v: number, upper: boolean): string {
  if (!Number.isFinite(v)) return formatFloatG(v, upper);
  if (Math.abs(v) < 1e21) return v.toFixed(6);
  return `${BigInt(v)}.000000`;
}

/** Parses a float as `float()` does: a decimal literal, or inf/infinity/nan with an optional sign. */
export function parseFloatText(text: string): number {
  const t = text.toLowerCase();
  const m = /^([+-]?)(inf|infinity|nan)$/.exec(t);
  if (m) {
    if (m[2] === "nan") return Number.NaN;
    return m[1] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (!/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)(e[+-]?[0-9]+)?$/.test(t)) {
    throw new StarlarkError(`invalid float literal: ${text}`);
  }
  const f = Number(t);
  if (!Number.isFinite(f)) throw new StarlarkError(`floating-point number too large: ${text}`);
  return f;
}
