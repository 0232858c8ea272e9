// The operators: arithmetic, bitwise, membership, indexing and slicing.
import { StarlarkError } from "../errors.js";
import { Bytes, bytesIndexOf, concatBytes } from "./bytes.js";
import { equals } from "./compare.js";
import { Dict, SSet } from "./dict.js";
import { compareFloats, SFloat, toFloat } from "./float.js";
import { repr } from "./format.js";
import {
  type Int,
  intAdd,
  intAnd,
  intFloorDiv,
  intMod,
  intMul,
  intNeg,
  intNot,
  intOr,
  intShl,
  intShr,
  intSub,
  intXor,
} from "./int.js";
import { List, Tuple, tuple } from "./list.js";
import { percentFormat } from "./percent.js";
import { Range } from "./range.js";
import { Mutable, typeName, type Value } from "./value.js";

/** The longest string, bytes, list or tuple that an operator may build. */
export const MAX_SEQUENCE = 1 << 28;

function unsupported(op: string, a: Value, b: Value): StarlarkError {
  return new StarlarkError(`unsupported binary operation: ${typeName(a)} ${op} ${typeName(b)}`);
}

function isNum(v: Value): v is Int | SFloat {
  return typeof v === "number" || typeof v === "bigint" || v instanceof SFloat;
}

function isIntVal(v: Value): v is Int {
  return typeof v === "number" || typeof v === "bigint";
}

export function add(a: Value, b: Value): Value {
  if (isIntVal(a) && isIntVal(b)) return intAdd(a, b);
  if (typeof a === "string" && typeof b === "string") {
    if (a.length + b.length > MAX_SEQUENCE) throw new StarlarkError("string too long");
    return a + b;
  }
  if (isNum(a) && isNum(b)) return new SFloat(toFloat(a) + toFloat(b));
  if (a instanceof List && b instanceof List) return new List(a.elems.concat(b.elems));
  if (a instanceof Tuple && b instanceof Tuple) return tuple(a.elems.concat(b.elems));
  if (a instanceof Bytes && b instanceof Bytes) return new Bytes(concatBytes(a.data, b.data));
  throw unsupported("+", a, b);
}

export function sub(a: Value, b: Value): Value {
  if (isIntVal(a) && isIntVal(b)) return intSub(a, b);
  if (isNum(a) && isNum(b)) return new SFloat(toFloat(a) - toFloat(b));
  if (a instanceof SSet && b instanceof SSet) {
    const r = new SSet();
    for (const [k, v] of a.map) if (!b.map.has(k)) r.map.set(k, v);
    return r;
  }
  throw unsupported("-", a, b);
}

function checkRepeat(len: number, count: number): void {
  if (len > 0 && count > 0 && len * count > MAX_SEQUENCE)
    throw new StarlarkError("excessive repeat: the result is too long");
}

function repeat(seq: Value, n: Int): Value {
  const count = typeof n === "bigint" ? (n > 0n ? Number.MAX_SAFE_INTEGER : 0) : Math.max(0, n);
  if (typeof seq === "string") {
    checkRepeat(seq.length, count);
    return count === 0 ? "" : seq.repeat(count);
  }
  if (seq instanceof Bytes) {
    checkRepeat(seq.data.length, count);
    const r = new Uint8Array(seq.data.length * count);
    for (let i = 0; i < count; i++) r.set(seq.data, i * seq.data.length);
    return new Bytes(r);
  }
  const elems = (seq as List | Tuple).elems;
  checkRepeat(elems.length, count);
  const r: Value[] = [];
  for (let i = 0; i < count; i++) for (const e of elems) r.push(e);
  return seq instanceof List ? new List(r) : tuple(r);
}

function isSequenceForRepeat(v: Value): boolean {
  return typeof v === "string" || v instanceof Bytes || v instanceof List || v instanceof Tuple;
}

export function mul(a: Value, b: Value): Value {
  if (isIntVal(a) && isIntVal(b)) return intMul(a, b);
  if (isNum(a) && isNum(b)) return new SFloat(toFloat(a) * toFloat(b));
  if (isIntVal(b) && isSequenceForRepeat(a)) return repeat(a, b);
  if (isIntVal(a) && isSequenceForRepeat(b)) return repeat(b, a);
  throw unsupported("*", a, b);
}

export function div(a: Value, b: Value): Value {
  if (isNum(a) && isNum(b)) {
    const y = toFloat(b);
    if (y === 0) throw new StarlarkError("floating-point division by zero");
    return new SFloat(toFloat(a) / y);
  }
  throw unsupported("/", a, b);
}

/** Python's float floor division and modulo (sign of the divisor, exact at the boundaries). */
function floatDivMod(x: number, y: number): [number, number] {
  let mod = x % y;
  let d = (x - mod) / y;
  if (mod) {
    if (y < 0 !== mod < 0) {
      mod += y;
      d -= 1;
    }
  } else {
    mod = y < 0 ? -0 : 0;
  }
  let q: number;
  if (d) {
    q = Math.floor(d);
    if (d - q > 0.5) q += 1;
  } else {
    const sign = x / y;
    q = sign < 0 || Object.is(sign, -0) ? -0 : 0;
  }
  return [q, mod];
}

export function floorDiv(a: Value, b: Value): Value {
  if (isIntVal(a) && isIntVal(b)) return intFloorDiv(a, b);
  if (isNum(a) && isNum(b)) {
    const y = toFloat(b);
    if (y === 0) throw new StarlarkError("floating-point division by zero");
    return new SFloat(floatDivMod(toFloat(a), y)[0]);
  }
  throw unsupported("//", a, b);
}

export function mod(a: Value, b: Value): Value {
  if (isIntVal(a) && isIntVal(b)) return intMod(a, b);
  if (typeof a === "string") return percentFormat(a, b);
  if (isNum(a) && isNum(b)) {
    const y = toFloat(b);
    if (y === 0) throw new StarlarkError("floating-point modulo by zero");
    return new SFloat(floatDivMod(toFloat(a), y)[1]);
  }
  throw unsupported("%", a, b);
}

export function bitOr(a: Value, b: Value): Value {
  if (isIntVal(a) && isIntVal(b)) return intOr(a, b);
  if (a instanceof Dict && b instanceof Dict) {
    const r = new Dict();
    for (const e of a.entries()) r.set(e.k, e.v);
    for (const e of b.entries()) r.set(e.k, e.v);
    return r;
  }
  if (a instanceof SSet && b instanceof SSet) {
    const r = new SSet();
    for (const [k, v] of a.map) r.map.set(k, v);
    for (const [k, v] of b.map) if (!r.map.has(k)) r.map.set(k, v);
    return r;
  }
  throw unsupported("|", a, b);
}

export function bitAnd(a: Value, b: Value): Value {
  if (isIntVal(a) && isIntVal(b)) return intAnd(a, b);
  if (a instanceof SSet && b instanceof SSet) {
    const r = new SSet();
    for (const [k, v] of a.map) if (b.map.has(k)) r.map.set(k, v);
    return r;
  }
  throw unsupported("&", a, b);
}

export function bitXor(a: Value, b: Value): Value {
  if (isIntVal(a) && isIntVal(b)) return intXor(a, b);
  if (a instanceof SSet && b instanceof SSet) {
    const r = new SSet();
    for (const [k, v] of a.map) if (!b.map.has(k)) r.map.set(k, v);
    for (const [k, v] of b.map) if (!a.map.has(k)) r.map.set(k, v);
    return r;
  }
  throw unsupported("^", a, b);
}

export function shl(a: Value, b: Value): Value {
  if (isIntVal(a) && isIntVal(b)) return intShl(a, b);
  throw unsupported("<<", a, b);
}

export function shr(a: Value, b: Value): Value {
  if (isIntVal(a) && isIntVal(b)) return intShr(a, b);
  throw unsupported(">>", a, b);
}

/** `x op= y`: lists, dicts and sets are updated in place for `+=`, `|=`, `&=`, `-=`, `^=`. */
export function inPlace(op: string, a: Value, b: Value): Value {
  if (a instanceof List && op === "+") {
    a.checkMutable("append to");
    const items = b instanceof List || b instanceof Tuple ? b.elems.slice() : [...iterate(b)];
    for (const x of items) a.elems.push(x);
    return a;
  }
  if (a instanceof Dict && op === "|" && b instanceof Dict) {
    a.checkMutable("insert into");
    for (const e of [...b.entries()]) a.set(e.k, e.v);
    return a;
  }
  if (a instanceof SSet && b instanceof SSet && (op === "|" || op === "&" || op === "-" || op === "^")) {
    a.checkMutable(op === "|" ? "insert into" : "delete from");
    const other = new Map(b.map);
    if (op === "|") {
      for (const [k, v] of other) if (!a.map.has(k)) a.map.set(k, v);
    } else if (op === "&") {
      for (const k of [...a.map.keys()]) if (!other.has(k)) a.map.delete(k);
    } else if (op === "-") {
      for (const k of other.keys()) a.map.delete(k);
    } else {
      for (const [k, v] of other) {
        if (a.map.has(k)) a.map.delete(k);
        else a.map.set(k, v);
      }
    }
    return a;
  }
  return binary(op, a, b);
}

export function binary(op: string, a: Value, b: Value): Value {
  switch (op) {
    case "+":
      return add(a, b);
    case "-":
      return sub(a, b);
    case "*":
      return mul(a, b);
    case "/":
      return div(a, b);
    case "//":
      return floorDiv(a, b);
    case "%":
      return mod(a, b);
    case "|":
      return bitOr(a, b);
    case "&":
      return bitAnd(a, b);
    case "^":
      return bitXor(a, b);
    case "<<":
      return shl(a, b);
    case ">>":
      return shr(a, b);
    case "in":
      return contains(b, a);
    case "not in":
      return !contains(b, a);
    default:
      throw new StarlarkError(`unknown operator ${op}`);
  }
}

export function negate(a: Value): Value {
  if (isIntVal(a)) return intNeg(a);
  if (a instanceof SFloat) return new SFloat(-a.v);
  throw new StarlarkError(`unsupported unary operation: -${typeName(a)}`);
}

export function plus(a: Value): Value {
  if (isNum(a)) return a;
  throw new StarlarkError(`unsupported unary operation: +${typeName(a)}`);
}

export function invert(a: Value): Value {
  if (isIntVal(a)) return intNot(a);
  throw new StarlarkError(`unsupported unary operation: ~${typeName(a)}`);
}

/** `x in container`. */
export function contains(container: Value, x: Value): boolean {
  if (container instanceof List || container instanceof Tuple) {
    for (const e of container.elems) if (e === x || equals(e, x)) return true;
    return false;
  }
  if (container instanceof Dict) return container.has(x);
  if (container instanceof SSet) return container.has(x);
  if (typeof container === "string") {
    if (typeof x !== "string")
      throw new StarlarkError(`'in <string>' requires string as left operand, not ${typeName(x)}`);
    return container.includes(x);
  }
  if (container instanceof Bytes) {
    if (x instanceof Bytes) return bytesIndexOf(container.data, x.data) >= 0;
    if (typeof x === "number") {
      if (x < 0 || x > 255) throw new StarlarkError(`int in bytes: ${x} out of range`);
      return container.data.includes(x);
    }
    throw new StarlarkError(`'in bytes' requires bytes or int as left operand, not ${typeName(x)}`);
  }
  if (container instanceof Range) {
    if (typeof x === "number") return container.contains(x);
    if (typeof x === "bigint") return false;
    if (x instanceof SFloat) return Number.isInteger(x.v) && container.contains(x.v);
    throw new StarlarkError(`'in <range>' requires a number as left operand, not ${typeName(x)}`);
  }
  if (typeof container === "object" && container !== null) {
    const it = container.iterate();
    if (it) {
      for (const e of it) if (equals(e, x)) return true;
      return false;
    }
  }
  throw new StarlarkError(`unsupported binary operation: ${typeName(x)} in ${typeName(container)}`);
}

/** The elements of an iterable value. */
export function iterate(v: Value): Iterable<Value> {
  if (typeof v === "object" && v !== null) {
    const it = v.iterate();
    if (it !== undefined) return it;
  }
  if (typeof v === "string")
    throw new StarlarkError("string value is not iterable (use .elems() or .codepoints())");
  if (v instanceof Bytes) throw new StarlarkError("bytes value is not iterable (use .elems())");
  throw new StarlarkError(`${typeName(v)} value is not iterable`);
}

/** The elements as an array (the list or tuple's own array: do not modify it). */
export function toArray(v: Value): readonly Value[] {
  if (v instanceof List || v instanceof Tuple) return v.elems;
  return [...iterate(v)];
}

/** Runs `body` while `v` is marked as being iterated (mutation refused). */
export function whileIterating<T>(v: Value, body: () => T): T {
  if (!(v instanceof Mutable)) return body();
  v.iters++;
  try {
    return body();
  } finally {
    v.iters--;
  }
}

/** An element index, negative counting from the end; fails outside the sequence. */
export function elemIndex(i: Value, n: number, what = "index"): number {
  if (typeof i === "number") {
    const j = i < 0 ? i + n : i;
    if (j >= 0 && j < n) return j;
    throw new StarlarkError(`${what} ${i} out of range: length ${n}`);
  }
  if (typeof i === "bigint") throw new StarlarkError(`${what} ${i} out of range: length ${n}`);
  throw new StarlarkError(`${what}: got ${typeName(i)}, want int`);
}

export function index(x: Value, i: Value): Value {
  if (x instanceof List || x instanceof Tuple) return x.elems[elemIndex(i, x.elems.length)] as Value;
  if (x instanceof Dict) {
    const v = x.get(i);
    if (v === undefined) throw new StarlarkError(`key ${repr(i)} not in dict`);
    return v;
  }
  if (typeof x === "string") return x[elemIndex(i, x.length)] as string;
  if (x instanceof Bytes) return x.data[elemIndex(i, x.data.length)] as number;
  if (x instanceof Range) return x.at(elemIndex(i, x.length));
  if (typeof x === "object" && x !== null) {
    const v = x.getIndex(i);
    if (v !== undefined) return v;
  }
  throw new StarlarkError(`unhandled index operation ${typeName(x)}[${typeName(i)}]`);
}

export function setIndex(x: Value, i: Value, v: Value): void {
  if (x instanceof List) {
    x.checkMutable("assign to element of");
    x.elems[elemIndex(i, x.elems.length)] = v;
    return;
  }
  if (x instanceof Dict) {
    x.set(i, v);
    return;
  }
  throw new StarlarkError(`${typeName(x)} value does not support item assignment`);
}

function clamp(x: number, min: number, max: number): number {
  return x < min ? min : x > max ? max : x;
}

function sliceBound(v: Value, what: string): number | undefined {
  if (v === null) return undefined;
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return v > 0n ? Number.MAX_SAFE_INTEGER : -Number.MAX_SAFE_INTEGER;
  throw new StarlarkError(`slice ${what}: got ${typeName(v)}, want int or None`);
}

/** The effective start, stop and step of `x[lo:hi:step]` over length `n`. */
export function sliceIndices(n: number, lo: Value, hi: Value, stepV: Value): [number, number, number] {
  const step = sliceBound(stepV, "step") ?? 1;
  if (step === 0) throw new StarlarkError("slice step cannot be zero");
  let start = sliceBound(lo, "start");
  let stop = sliceBound(hi, "end");
  if (step > 0) {
    start = start === undefined ? 0 : clamp(start < 0 ? start + n : start, 0, n);
    stop = stop === undefined ? n : clamp(stop < 0 ? stop + n : stop, 0, n);
  } else {
    start = start === undefined ? n - 1 : clamp(start < 0 ? start + n : start, -1, n - 1);
    stop = stop === undefined ? -1 : clamp(stop < 0 ? stop + n : stop, -1, n - 1);
  }
  return [start, stop, step];
}

export function slice(x: Value, lo: Value, hi: Value, stepV: Value): Value {
  let n: number;
  if (typeof x === "string") n = x.length;
  else if (x instanceof List || x instanceof Tuple) n = x.elems.length;
  else if (x instanceof Bytes) n = x.data.length;
  else if (x instanceof Range) n = x.length;
  else throw new StarlarkError(`invalid slice operand ${typeName(x)}`);
  const [start, stop, step] = sliceIndices(n, lo, hi, stepV);
  if (x instanceof Range) {
    return new Range(x.start + start * x.step, x.start + stop * x.step, x.step * step);
  }
  if (step === 1) {
    if (typeof x === "string") return x.slice(start, Math.max(start, stop));
    if (x instanceof Bytes) return new Bytes(x.data.slice(start, Math.max(start, stop)));
    const elems = (x as List | Tuple).elems.slice(start, Math.max(start, stop));
    return x instanceof List ? new List(elems) : tuple(elems);
  }
  const idx: number[] = [];
  if (step > 0) for (let i = start; i < stop; i += step) idx.push(i);
  else for (let i = start; i > stop; i += step) idx.push(i);
  if (typeof x === "string") {
    let r = "";
    for (const i of idx) r += x[i];
    return r;
  }
  if (x instanceof Bytes) return new Bytes(Uint8Array.from(idx, (i) => x.data[i] as number));
  const elems = idx.map((i) => (x as List | Tuple).elems[i] as Value);
  return x instanceof List ? new List(elems) : tuple(elems);
}

export { compareFloats };
