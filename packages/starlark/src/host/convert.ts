// Conversions between Starlark values and plain JS data, and the typed extractors host functions
// use on their arguments (each fails the program with a clear message on a wrong type).
import { StarlarkError } from "../errors.js";
import { wrongType } from "../eval/args.js";
import { Bytes } from "../values/bytes.js";
import { Dict, SSet } from "../values/dict.js";
import { SFloat } from "../values/float.js";
import { normInt } from "../values/int.js";
import { List, Tuple } from "../values/list.js";
import { SValue, typeName, type Value } from "../values/value.js";
import { EnumValue, Struct } from "./host.js";

/**
 * A Starlark value for plain JS data: null/undefined → None, an integral number → int (use
 * {@link float} for a float), other numbers → float, bigint → int, string, boolean, Uint8Array →
 * bytes, array → list, Map and plain objects → dict, Set → set; Starlark values pass through.
 */
export function toStarlark(x: unknown): Value {
  if (x === null || x === undefined) return null;
  switch (typeof x) {
    case "boolean":
    case "string":
      return x;
    case "number":
      if (Number.isSafeInteger(x)) return x === 0 ? 0 : x;
      if (Number.isInteger(x)) return BigInt(x);
      return new SFloat(x);
    case "bigint":
      return normInt(x);
    case "object":
      break;
    default:
      throw new StarlarkError(`cannot convert a JS ${typeof x} to a Starlark value`);
  }
  if (x instanceof SValue) return x;
  if (x instanceof Uint8Array) return new Bytes(x);
  if (Array.isArray(x)) return new List(x.map(toStarlark));
  if (x instanceof Map) {
    const d = new Dict();
    for (const [k, v] of x) d.set(toStarlark(k), toStarlark(v));
    return d;
  }
  if (x instanceof Set) return new SSet([...x].map(toStarlark));
  const d = new Dict();
  for (const [k, v] of Object.entries(x as Record<string, unknown>)) d.set(k, toStarlark(v));
  return d;
}

/**
 * Plain JS data for a Starlark value: None → null, int → number (bigint beyond 2^53), float →
 * number, bytes → Uint8Array, list and tuple → array, dict → plain object when every key is a
 * string (a Map otherwise), set → Set, struct → plain object of its fields, enum constant → its value
 * string; functions and other host values are returned as they are.
 */
export function toJS(v: Value): unknown {
  if (v === null) return null;
  if (typeof v !== "object") return v;
  if (v instanceof SFloat) return v.v;
  if (v instanceof Bytes) return v.data;
  if (v instanceof List || v instanceof Tuple) return v.elems.map(toJS);
  if (v instanceof Dict) {
    const entries = [...v.entries()];
    if (entries.every((e) => typeof e.k === "string")) {
      const o: Record<string, unknown> = {};
      for (const e of entries) o[e.k as string] = toJS(e.v);
      return o;
    }
    return new Map(entries.map((e) => [toJS(e.k), toJS(e.v)]));
  }
  if (v instanceof SSet) return new Set(v.values().map(toJS));
  if (v instanceof Struct) {
    const o: Record<string, unknown> = {};
    for (const [k, f] of v.fields) o[k] = toJS(f);
    return o;
  }
  if (v instanceof EnumValue) return v.value;
  return v;
}

/** A string argument. */
export function asString(v: Value | undefined, what: string): string {
  if (typeof v === "string") return v;
  throw wrongType(what, v ?? null, "string");
}

/** An int argument as a JS number (fails beyond 2^53). */
export function asInt(v: Value | undefined, what: string): number {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") throw new StarlarkError(`${what}: ${v} is out of range`);
  throw wrongType(what, v ?? null, "int");
}

/** A bool argument (strictly True or False). */
export function asBool(v: Value | undefined, what: string): boolean {
  if (typeof v === "boolean") return v;
  throw wrongType(what, v ?? null, "bool");
}

/** The elements of a list or tuple argument. */
export function asList(v: Value | undefined, what: string): readonly Value[] {
  if (v instanceof List || v instanceof Tuple) return v.elems;
  throw wrongType(what, v ?? null, "list or tuple");
}

/** A list or tuple of strings. */
export function asStringList(v: Value | undefined, what: string): string[] {
  return asList(v, what).map((e, i) => {
    if (typeof e !== "string")
      throw new StarlarkError(`${what}: element #${i} is ${typeName(e)}, want string`);
    return e;
  });
}

/** A dict of strings to strings. */
export function asStringDict(v: Value | undefined, what: string): Record<string, string> {
  if (!(v instanceof Dict)) throw wrongType(what, v ?? null, "dict");
  const out: Record<string, string> = {};
  for (const e of v.entries()) {
    if (typeof e.k !== "string") throw new StarlarkError(`${what}: key ${typeName(e.k)}, want string`);
    if (typeof e.v !== "string")
      throw new StarlarkError(`${what}: value of ${JSON.stringify(e.k)} is ${typeName(e.v)}, want string`);
    out[e.k] = e.v;
  }
  return out;
}

/** undefined for an omitted argument or None, the value otherwise. */
export function optional(v: Value | undefined): Value | undefined {
  return v === null ? undefined : v;
}
