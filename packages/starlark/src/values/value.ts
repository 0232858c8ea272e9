// The value model. A Starlark value is a JS primitive or an SValue:
//   None -> null, bool -> boolean, int -> number (a safe integer) or bigint (beyond 2^53, never
//   both for one magnitude), string -> string (UTF-16 code units), everything else -> SValue.
// Floats are SFloat objects so that `1` and `1.0` stay distinct types.
import { StarlarkError } from "../errors.js";
import type { Thread } from "../eval/thread.js";

export type Value = null | boolean | number | bigint | string | SValue;

/** A dict key: the canonical JS form under which equal Starlark values collide in a JS Map. */
export type DictKey = null | boolean | number | bigint | string | object;

/** Accumulates a repr or str; `path` holds the containers being printed, to cut cycles. */
export class Printer {
  s = "";
  readonly path: SValue[] = [];
  write(text: string): void {
    this.s += text;
  }
}

/** The base of every non-primitive value, the host's types included. */
export abstract class SValue {
  /** What `type(x)` returns. */
  abstract typeName(): string;
  /** Appends what `repr(x)` returns. */
  abstract writeRepr(out: Printer): void;
  /** Appends what `str(x)` returns (the repr unless overridden). */
  writeStr(out: Printer): void {
    this.writeRepr(out);
  }
  /** The truth value. */
  truth(): boolean {
    return true;
  }
  /**
   * The canonical dict key of this value. Values hashed by identity return themselves; values hashed
   * by content return a string no other type produces (see {@link contentKey}). Unhashable values throw.
   */
  hashKey(): DictKey {
    throw new StarlarkError(`unhashable type: ${this.typeName()}`);
  }
  /** Equality with any value (`other` is never this same object). */
  equals(_other: Value, _depth: number): boolean {
    return false;
  }
  /** Ordered comparison with a value of the same type, or undefined if these are not ordered. */
  compareTo(_other: Value, _depth: number): number | undefined {
    return undefined;
  }
  /** Makes this value and everything reachable from it immutable. */
  freeze(): void {}
  /** A field (not a method) named `name`, or undefined. */
  getField(_name: string): Value | undefined {
    return undefined;
  }
  /** The names of the fields (methods are listed from the method tables). */
  fieldNames(): string[] {
    return [];
  }
  /** `x.name = v`. */
  setField(name: string, _v: Value): void {
    throw new StarlarkError(`${this.typeName()} value does not support field assignment (.${name})`);
  }
  /** The number of elements, or undefined when `len` does not apply. */
  len(): number | undefined {
    return undefined;
  }
  /** `x[i]` for a host type that supports indexing; undefined when it does not. */
  getIndex(_i: Value): Value | undefined {
    return undefined;
  }
  /** The elements, in iteration order, or undefined when the value is not iterable. */
  iterate(): Iterable<Value> | undefined {
    return undefined;
  }
}

/** A value that may be called. */
export abstract class Callable extends SValue {
  abstract get name(): string;
  /** `args` holds the positional arguments then the values of the named ones, whose names are `kwnames`. */
  abstract call(thread: Thread, args: Value[], kwnames: readonly string[] | null): Value;
  override hashKey(): DictKey {
    return this;
  }
}

/** A mutable container: frozen, or busy while iterated. */
export abstract class Mutable extends SValue {
  frozen = false;
  /** The number of active iterations; mutation is refused while above zero. */
  iters = 0;
  checkMutable(verb: string): void {
    if (this.frozen) throw new StarlarkError(`cannot ${verb} frozen ${this.typeName()}`);
    if (this.iters > 0) throw new StarlarkError(`cannot ${verb} ${this.typeName()} during iteration`);
  }
}

/** A variable shared between a function and the functions nested in it. */
export class Cell {
  constructor(public v: Value | undefined) {}
}

/** `type(x)`. */
export function typeName(v: Value): string {
  switch (typeof v) {
    case "string":
      return "string";
    case "number":
    case "bigint":
      return "int";
    case "boolean":
      return "bool";
    default:
      return v === null ? "NoneType" : v.typeName();
  }
}

/** `bool(x)`. */
export function truth(v: Value): boolean {
  switch (typeof v) {
    case "boolean":
      return v;
    case "number":
      return v !== 0;
    case "string":
      return v.length > 0;
    case "bigint":
      return v !== 0n;
    default:
      return v === null ? false : v.truth();
  }
}

/** The canonical dict key of `v` (throws for unhashable values). */
export function keyOf(v: Value): DictKey {
  switch (typeof v) {
    case "string":
      return v.length > 0 && v.charCodeAt(0) === 0 ? `\0S${v}` : v;
    case "object":
      return v === null ? null : v.hashKey();
    default:
      return v;
  }
}

const identityIds = new WeakMap<object, number>();
let nextIdentity = 1;

/** An injective string encoding of a canonical key, for keys of composite values (tuples, structs). */
export function encodeKey(k: DictKey): string {
  switch (typeof k) {
    case "string":
      return `s${k.length}:${k}`;
    case "number":
    case "bigint":
      return `i${k};`;
    case "boolean":
      return k ? "T" : "F";
    default: {
      if (k === null) return "N";
      let id = identityIds.get(k);
      if (id === undefined) {
        id = nextIdentity++;
        identityIds.set(k, id);
      }
      return `#${id};`;
    }
  }
}

/** The key of a value hashed by content: a tag no string key can produce, then the parts. */
export function contentKey(tag: string, parts: string): string {
  return `\0${tag}${parts}`;
}
