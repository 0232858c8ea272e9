// The predeclared names of every program: None, True, False and the built-in functions.
import { StarlarkError, StarlarkFail } from "../errors.js";
import { intArg, wrongType } from "../eval/args.js";
import { attrNames, findAttr } from "../eval/attr.js";
import { Builtin } from "../eval/builtin.js";
import type { Thread } from "../eval/thread.js";
import { Bytes, utf8Encode } from "../values/bytes.js";
import { compare } from "../values/compare.js";
import { Dict, SSet } from "../values/dict.js";
import { parseFloatText, SFloat } from "../values/float.js";
import { repr, str } from "../values/format.js";
import { floatToInt, type Int, intAbs, intToFloat, parseDigits } from "../values/int.js";
import { List, Tuple, tuple } from "../values/list.js";
import { iterate, toArray } from "../values/ops.js";
import { Range } from "../values/range.js";
import { truth, typeName, type Value } from "../values/value.js";
import { updateDict } from "./collection-methods.js";

/** Java's String.hashCode over the UTF-16 code units. */
export function stringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/** 32-bit FNV-1a. */
export function bytesHash(b: Uint8Array): number {
  let h = 0x811c9dc5;
  for (const c of b) h = Math.imul(h ^ c, 0x01000193);
  return h | 0;
}

function parseInt_(text: string, baseArg: Value | undefined): Int {
  let base = baseArg === undefined || baseArg === null ? 10 : intArg(baseArg, "int: base");
  if (base !== 0 && (base < 2 || base > 36))
    throw new StarlarkError("int: base must be an integer >= 2 && <= 36, or 0");
  let s = text;
  let neg = false;
  if (s.startsWith("+") || s.startsWith("-")) {
    neg = s[0] === "-";
    s = s.slice(1);
  }
  const prefix = s.slice(0, 2).toLowerCase();
  const prefixBase = prefix === "0x" ? 16 : prefix === "0o" ? 8 : prefix === "0b" ? 2 : 0;
  if (base === 0) {
    if (prefixBase) {
      base = prefixBase;
      s = s.slice(2);
    } else if (s.length > 1 && s[0] === "0" && /[^0]/.test(s)) {
      throw new StarlarkError(
        `int: invalid literal with base 0: ${repr(text)} (a leading zero needs a 0o prefix)`,
      );
    } else {
      base = 10;
    }
  } else if (prefixBase === base) {
    s = s.slice(2);
  }
  const v = parseDigits(s, base);
  if (v === undefined) throw new StarlarkError(`int: invalid literal with base ${base}: ${repr(text)}`);
  return neg ? (typeof v === "number" ? (v === 0 ? 0 : -v) : -v) : v;
}

function toInt(x: Value, base: Value | undefined): Value {
  if (typeof x === "string") return parseInt_(x, base);
  if (base !== undefined && base !== null)
    throw new StarlarkError("int: can't convert non-string with explicit base");
  if (typeof x === "number" || typeof x === "bigint") return x;
  if (typeof x === "boolean") return x ? 1 : 0;
  if (x instanceof SFloat) return floatToInt(x.v);
  throw wrongType("int", x, "int, float, bool or string");
}

function toFloatValue(x: Value): Value {
  if (x instanceof SFloat) return x;
  if (typeof x === "number" || typeof x === "bigint") return new SFloat(intToFloat(x));
  if (typeof x === "boolean") return new SFloat(x ? 1 : 0);
  if (typeof x === "string") return new SFloat(parseFloatText(x));
  throw wrongType("float", x, "int, float, bool or string");
}

function toBytes(x: Value): Value {
  if (x instanceof Bytes) return x;
  if (typeof x === "string") return new Bytes(utf8Encode(x));
  if (typeof x === "object" && x !== null && x.iterate() !== undefined) {
    const out: number[] = [];
    for (const e of iterate(x)) {
      if (typeof e !== "number" || e < 0 || e > 255) {
        throw new StarlarkError(`bytes: element ${repr(e)} is not an int in 0..255`);
      }
      out.push(e);
    }
    return new Bytes(Uint8Array.from(out));
  }
  throw wrongType("bytes", x, "string, bytes, or iterable of int");
}

function len(x: Value): number {
  if (typeof x === "string") return x.length;
  if (typeof x === "object" && x !== null) {
    const n = x.len();
    if (n !== undefined) return n;
  }
  throw new StarlarkError(`len: value of type ${typeName(x)} has no len`);
}

function minMax(name: string, args: Value[], thread: Thread, sign: number): Value {
  const [positional, key] = [args[0] as Tuple, args[1] as Value];
  let items: readonly Value[];
  if (positional.elems.length === 0) throw new StarlarkError(`${name}: expected at least one argument`);
  if (positional.elems.length === 1) items = toArray(positional.elems[0] as Value);
  else items = positional.elems;
  if (items.length === 0) throw new StarlarkError(`${name}: argument is an empty sequence`);
  let best = items[0] as Value;
  let bestKey = key === null ? best : thread.call(key, [best]);
  for (let i = 1; i < items.length; i++) {
    const x = items[i] as Value;
    const k = key === null ? x : thread.call(key, [x]);
    if (compare(k, bestKey, sign > 0 ? ">" : "<") * sign > 0) {
      best = x;
      bestKey = k;
    }
  }
  return best;
}

function sorted(items: readonly Value[], key: Value, reverse: boolean, thread: Thread): Value[] {
  const sign = reverse ? -1 : 1;
  if (key === null) {
    const copy = items.slice();
    if (copy.every((x) => typeof x === "number")) return (copy as number[]).sort((a, b) => sign * (a - b));
    if (copy.every((x) => typeof x === "string")) {
      return (copy as string[]).sort((a, b) => sign * (a < b ? -1 : a > b ? 1 : 0));
    }
    return copy.sort((a, b) => sign * compare(a, b));
  }
  const keyed = items.map((x, i) => ({ x, k: thread.call(key, [x]), i }));
  keyed.sort((a, b) => sign * compare(a.k, b.k));
  return keyed.map((e) => e.x);
}

function printed(args: Value[]): string {
  const items = (args[0] as Tuple).elems;
  const sep = args[1];
  if (typeof sep !== "string") throw wrongType("print: sep", sep as Value, "string");
  const parts = items.map((x) => str(x));
  const kwargs = args[2] as Dict;
  for (const e of kwargs.entries()) parts.push(`${str(e.k)}=${str(e.v)}`);
  return parts.join(sep);
}

const builtins: Builtin[] = [
  new Builtin("abs(x)", ([x]) => {
    if (typeof x === "number" || typeof x === "bigint") return intAbs(x);
    if (x instanceof SFloat) return new SFloat(Math.abs(x.v));
    throw wrongType("abs", x as Value, "int or float");
  }),
  new Builtin("any(x)", ([x]) => {
    for (const e of iterate(x as Value)) if (truth(e)) return true;
    return false;
  }),
  new Builtin("all(x)", ([x]) => {
    for (const e of iterate(x as Value)) if (!truth(e)) return false;
    return true;
  }),
  new Builtin("bool(x=False, /)", ([x]) => truth(x as Value)),
  new Builtin("bytes(x, /)", ([x]) => toBytes(x as Value)),
  new Builtin("dict(pairs?, /, **kwargs)", ([pairs, kwargs]) => {
    const d = new Dict();
    updateDict(d, pairs, kwargs as Dict, "dict");
    return d;
  }),
  new Builtin("dir(x, /)", ([x]) => new List(attrNames(x as Value))),
  new Builtin("enumerate(x, /, start=0)", ([x, start]) => {
    let i = intArg(start as Value, "enumerate: start");
    return new List(toArray(x as Value).map((e) => tuple([i++, e])));
  }),
  new Builtin("fail(*args, sep=' ')", ([args, sep]) => {
    if (typeof sep !== "string") throw wrongType("fail: sep", sep as Value, "string");
    throw new StarlarkFail((args as Tuple).elems.map((x) => str(x)).join(sep));
  }),
  new Builtin("float(x=0.0, /)", ([x]) => toFloatValue(x as Value)),
  new Builtin("getattr(x, name, default?, /)", ([x, name, dflt]) => {
    if (typeof name !== "string") throw wrongType("getattr: name", name as Value, "string");
    const v = findAttr(x as Value, name);
    if (v !== undefined) return v;
    if (dflt !== undefined) return dflt;
    throw new StarlarkError(`${typeName(x as Value)} has no .${name} field or method`);
  }),
  new Builtin("hasattr(x, name, /)", ([x, name]) => {
    if (typeof name !== "string") throw wrongType("hasattr: name", name as Value, "string");
    return findAttr(x as Value, name) !== undefined;
  }),
  new Builtin("hash(x, /)", ([x]) => {
    if (typeof x === "string") return stringHash(x);
    if (x instanceof Bytes) return bytesHash(x.data);
    throw wrongType("hash", x as Value, "string or bytes");
  }),
  new Builtin("int(x=0, /, base?)", ([x, base]) => toInt(x as Value, base)),
  new Builtin("len(x, /)", ([x]) => len(x as Value)),
  new Builtin("list(x?, /)", ([x]) => new List(x === undefined ? [] : toArray(x).slice())),
  new Builtin("max(*args, key=None)", (a, th) => minMax("max", a, th, 1)),
  new Builtin("min(*args, key=None)", (a, th) => minMax("min", a, th, -1)),
  new Builtin("print(*args, sep=' ', **kwargs)", (a, th) => {
    th.print(printed(a));
    return null;
  }),
  new Builtin("range(start_or_stop, stop?, step=1, /)", ([a, b, c]) => {
    const x = intArg(a as Value, "range");
    if (b === undefined) return new Range(0, x, 1);
    return new Range(x, intArg(b, "range"), intArg(c as Value, "range"));
  }),
  new Builtin("repr(x, /)", ([x]) => repr(x as Value)),
  new Builtin(
    "reversed(x, /)",
    ([x]) =>
      new List(
        toArray(x as Value)
          .slice()
          .reverse(),
      ),
  ),
  new Builtin("set(x?, /)", ([x]) => new SSet(x === undefined ? [] : toArray(x))),
  new Builtin(
    "sorted(x, /, *, key=None, reverse=False)",
    ([x, key, reverse], th) =>
      new List(sorted(toArray(x as Value), key as Value, truth(reverse as Value), th)),
  ),
  new Builtin("str(x, /)", ([x]) => str(x as Value)),
  new Builtin("tuple(x?, /)", ([x]) => {
    if (x === undefined) return tuple([]);
    if (x instanceof Tuple) return x;
    return tuple(toArray(x).slice());
  }),
  new Builtin("type(x, /)", ([x]) => typeName(x as Value)),
  new Builtin("zip(*args)", ([args]) => {
    const seqs = (args as Tuple).elems.map((s) => toArray(s));
    const n = seqs.length === 0 ? 0 : Math.min(...seqs.map((s) => s.length));
    const out: Value[] = [];
    for (let i = 0; i < n; i++) out.push(tuple(seqs.map((s) => s[i] as Value)));
    return new List(out);
  }),
];

/** The universe: every predeclared name of the language. */
export const universe: ReadonlyMap<string, Value> = new Map<string, Value>([
  ["None", null],
  ["True", true],
  ["False", false],
  ...builtins.map((b): [string, Value] => [b.name, b]),
]);
