// Integers of arbitrary size: a JS number while the magnitude is a safe integer, a bigint beyond.
// Every operation returns the normal form, so the two never represent the same value.
import { StarlarkError } from "../errors.js";

export type Int = number | bigint;

const MAX = Number.MAX_SAFE_INTEGER;
const MAXB = BigInt(MAX);
const MINB = -MAXB;

/** The normal form of a bigint. */
export function normInt(b: bigint): Int {
  return b >= MINB && b <= MAXB ? Number(b) : b;
}

export function isInt(v: unknown): v is Int {
  return typeof v === "number" || typeof v === "bigint";
}

function big(a: Int): bigint {
  return typeof a === "bigint" ? a : BigInt(a);
}

export function intAdd(a: Int, b: Int): Int {
  if (typeof a === "number" && typeof b === "number") {
    const r = a + b;
    if (r <= MAX && r >= -MAX) return r;
  }
  return normInt(big(a) + big(b));
}

export function intSub(a: Int, b: Int): Int {
  if (typeof a === "number" && typeof b === "number") {
    const r = a - b;
    if (r <= MAX && r >= -MAX) return r;
  }
  return normInt(big(a) - big(b));
}

export function intMul(a: Int, b: Int): Int {
  if (typeof a === "number" && typeof b === "number") {
    const r = a * b;
    if (r <= MAX && r >= -MAX) return r === 0 ? 0 : r;
  }
  return normInt(big(a) * big(b));
}

export function intNeg(a: Int): Int {
  return typeof a === "number" ? (a === 0 ? 0 : -a) : normInt(-a);
}

function zeroDivision(op: string): StarlarkError {
  return new StarlarkError(`integer ${op} by zero`);
}

/** Floored division. */
export function intFloorDiv(a: Int, b: Int): Int {
  if (typeof a === "number" && typeof b === "number") {
    if (b === 0) throw zeroDivision("division");
    const r = Math.floor(a / b);
    if (r <= MAX && r >= -MAX) return r === 0 ? 0 : r;
  }
  const x = big(a);
  const y = big(b);
  if (y === 0n) throw zeroDivision("division");
  let q = x / y;
  if (x % y !== 0n && x < 0n !== y < 0n) q -= 1n;
  return normInt(q);
}

/** Remainder of floored division: takes the sign of the divisor. */
export function intMod(a: Int, b: Int): Int {
  if (typeof a === "number" && typeof b === "number") {
    if (b === 0) throw zeroDivision("modulo");
    let r = a % b;
    if (r !== 0 && r < 0 !== b < 0) r += b;
    return r === 0 ? 0 : r;
  }
  const x = big(a);
  const y = big(b);
  if (y === 0n) throw zeroDivision("modulo");
  let r = x % y;
  if (r !== 0n && r < 0n !== y < 0n) r += y;
  return normInt(r);
}

function isInt32(a: Int): a is number {
  return typeof a === "number" && (a | 0) === a;
}

export function intAnd(a: Int, b: Int): Int {
  if (isInt32(a) && isInt32(b)) return a & b;
  return normInt(big(a) & big(b));
}

export function intOr(a: Int, b: Int): Int {
  if (isInt32(a) && isInt32(b)) return a | b;
  return normInt(big(a) | big(b));
}

export function intXor(a: Int, b: Int): Int {
  if (isInt32(a) && isInt32(b)) return a ^ b;
  return normInt(big(a) ^ big(b));
}

export function intNot(a: Int): Int {
  return intSub(intNeg(a), 1);
}

/** The largest shift accepted, so that `1 << n` cannot exhaust memory. */
export const MAX_SHIFT = 1 << 16;

export function intShl(a: Int, b: Int): Int {
  if (intSign(b) < 0) throw new StarlarkError(`negative shift count: ${b}`);
  if (typeof b === "bigint" || b >= MAX_SHIFT) {
    if (intSign(a) === 0) return 0;
    throw new StarlarkError(`shift count too large: ${b}`);
  }
  if (isInt32(a) && b < 31 && Math.abs(a) < 2 ** (31 - b)) return a << b;
  return normInt(big(a) << BigInt(b));
}

export function intShr(a: Int, b: Int): Int {
  if (intSign(b) < 0) throw new StarlarkError(`negative shift count: ${b}`);
  if (typeof b === "bigint" || b >= MAX_SHIFT) return intSign(a) < 0 ? -1 : 0;
  if (isInt32(a)) return b >= 32 ? (a < 0 ? -1 : 0) : a >> b;
  return normInt(big(a) >> BigInt(b));
}

export function intSign(a: Int): number {
  return a > 0 ? 1 : a < 0 ? -1 : 0;
}

export function intCompare(a: Int, b: Int): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function intAbs(a: Int): Int {
  return a < 0 ? intNeg(a) : a;
}

/** The float nearest to `a`; fails when too large to be finite. */
export function intToFloat(a: Int): number {
  const f = Number(a);
  if (!Number.isFinite(f)) throw new StarlarkError("int too large to convert to float");
  return f;
}

/** The int of a finite float, truncated towards zero. */
export function floatToInt(f: number): Int {
  if (!Number.isFinite(f)) throw new StarlarkError(`cannot convert float ${f} to integer`);
  const t = Math.trunc(f);
  if (t <= MAX && t >= -MAX) return t === 0 ? 0 : t;
  return BigInt(t);
}

/** Exact comparison of an int with a float (NaN is above everything). */
export function compareIntFloat(a: Int, f: number): number {
  if (Number.isNaN(f)) return -1;
  if (typeof a === "number") return a < f ? -1 : a > f ? 1 : 0;
  if (f === Number.POSITIVE_INFINITY) return -1;
  if (f === Number.NEGATIVE_INFINITY) return 1;
  const fl = BigInt(Math.floor(f));
  if (a < fl) return -1;
  if (a > fl) return 1;
  return Math.floor(f) === f ? 0 : -1;
}

/** Parses digits in `base` (2..36) exactly; undefined when a character is not a digit. */
export function parseDigits(digits: string, base: number): Int | undefined {
  if (digits.length === 0) return undefined;
  if (base === 10 && /^[0-9]+$/.test(digits)) {
    if (digits.length <= 15) return Number(digits);
    return normInt(BigInt(digits));
  }
  if (base === 16 && /^[0-9a-fA-F]+$/.test(digits)) return normInt(BigInt(`0x${digits}`));
  if (base === 8 && /^[0-7]+$/.test(digits)) return normInt(BigInt(`0o${digits}`));
  if (base === 2 && /^[01]+$/.test(digits)) return normInt(BigInt(`0b${digits}`));
  let acc = 0n;
  const b = BigInt(base);
  for (const ch of digits.toLowerCase()) {
    const c = ch.charCodeAt(0);
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 122 ? c - 87 : 99;
    if (d >= base) return undefined;
    acc = acc * b + BigInt(d);
  }
  return normInt(acc);
}
