// What a host adds to the language: functions with named parameters, struct-like values, namespaces
// and enum-like typed constants.
import { StarlarkError } from "../errors.js";
import { Builtin, parseSignature } from "../eval/builtin.js";
import type { Thread } from "../eval/thread.js";
import { checkDepth, equals } from "../values/compare.js";
import { quote, writeValue } from "../values/format.js";
import { freezeValue } from "../values/list.js";
import {
  contentKey,
  type DictKey,
  encodeKey,
  keyOf,
  type Printer,
  SValue,
  type Value,
} from "../values/value.js";

/** The arguments of a host function by parameter name (omitted `name?` parameters are undefined). */
export type HostArgs = Record<string, Value | undefined>;

/**
 * A host function: `signature` as in Python (`run(prog, *args, env=None, cwd=None)`; parameters after
 * `*` or `*args` are keyword-only, `name?` may be omitted, defaults are literals). The implementation
 * receives the arguments by name; it fails the program by throwing {@link StarlarkError}.
 */
export function hostFunction(signature: string, impl: (args: HostArgs, thread: Thread) => Value): Builtin {
  const sig = parseSignature(signature);
  const names = sig.slotNames;
  return new Builtin(sig, (slots, thread) => {
    const args: HostArgs = {};
    for (let i = 0; i < names.length; i++) args[names[i] as string] = slots[i];
    return impl(args, thread);
  });
}

export interface StructOptions {
  /** What `str(x)` returns (default: the repr). */
  str?: (s: Struct) => string;
  /** What `repr(x)` returns (default: `type(name = value, ...)`). */
  repr?: (s: Struct) => string;
  /** Allow `x.field = value` until frozen. */
  mutable?: boolean;
}

/** A value with named fields, such as the result of a command run. */
export class Struct extends SValue {
  readonly fields: Map<string, Value>;
  private frozen = false;
  constructor(
    readonly type: string,
    fields: Readonly<Record<string, Value>> | ReadonlyMap<string, Value>,
    readonly options: StructOptions = {},
  ) {
    super();
    this.fields = new Map(fields instanceof Map ? fields : Object.entries(fields));
  }
  override typeName(): string {
    return this.type;
  }
  override writeRepr(out: Printer): void {
    if (this.options.repr) {
      out.write(this.options.repr(this));
      return;
    }
    out.write(`${this.type}(`);
    let first = true;
    for (const [k, v] of this.fields) {
      if (!first) out.write(", ");
      first = false;
      out.write(`${k} = `);
      writeValue(out, v);
    }
    out.write(")");
  }
  override writeStr(out: Printer): void {
    if (this.options.str) out.write(this.options.str(this));
    else this.writeRepr(out);
  }
  override getField(name: string): Value | undefined {
    return this.fields.get(name);
  }
  override fieldNames(): string[] {
    return [...this.fields.keys()];
  }
  override setField(name: string, v: Value): void {
    if (!this.options.mutable)
      throw new StarlarkError(`${this.type} value is immutable (cannot set .${name})`);
    if (this.frozen) throw new StarlarkError(`cannot set .${name} of frozen ${this.type}`);
    this.fields.set(name, v);
  }
  override freeze(): void {
    if (this.frozen) return;
    this.frozen = true;
    for (const v of this.fields.values()) freezeValue(v);
  }
  override hashKey(): DictKey {
    let parts = `${encodeKey(this.type)}`;
    for (const [k, v] of this.fields) parts += encodeKey(k) + encodeKey(keyOf(v));
    return contentKey("R", parts);
  }
  override equals(other: Value, depth: number): boolean {
    if (!(other instanceof Struct) || other.type !== this.type || other.fields.size !== this.fields.size)
      return false;
    checkDepth(depth);
    for (const [k, v] of this.fields) {
      const o = other.fields.get(k);
      if (o === undefined || !equals(v, o, depth + 1)) return false;
    }
    return true;
  }
  /** A field as given (undefined when absent). */
  get(name: string): Value | undefined {
    return this.fields.get(name);
  }
}

export function struct(
  type: string,
  fields: Readonly<Record<string, Value>>,
  options?: StructOptions,
): Struct {
  return new Struct(type, fields, options);
}

/** A named group of values reached with a dot: `pkg.os.Linux`. Immutable; compared by identity. */
export class Namespace extends SValue {
  readonly members: ReadonlyMap<string, Value>;
  constructor(
    readonly name: string,
    members: Readonly<Record<string, Value>> | ReadonlyMap<string, Value>,
  ) {
    super();
    this.members = new Map(members instanceof Map ? members : Object.entries(members));
  }
  override typeName(): string {
    return "namespace";
  }
  override writeRepr(out: Printer): void {
    out.write(`<namespace ${this.name}>`);
  }
  override getField(name: string): Value | undefined {
    return this.members.get(name);
  }
  override fieldNames(): string[] {
    return [...this.members.keys()];
  }
  override hashKey(): DictKey {
    return this;
  }
  override freeze(): void {
    for (const v of this.members.values()) freezeValue(v);
  }
}

export function namespace(name: string, members: Readonly<Record<string, Value>>): Namespace {
  return new Namespace(name, members);
}

/**
 * A constant of an enum-like host type: `type(x)` is the type's name, `str(x)` its value,
 * `repr(x)` `Type.Member`; equal only to itself (a string compares unequal, without error);
 * hashable; `.name` and `.value` fields.
 */
export class EnumValue extends SValue {
  constructor(
    readonly type: string,
    readonly member: string,
    readonly value: string,
  ) {
    super();
  }
  override typeName(): string {
    return this.type;
  }
  override writeRepr(out: Printer): void {
    out.write(`${this.type}.${this.member}`);
  }
  override writeStr(out: Printer): void {
    out.write(this.value);
  }
  override hashKey(): DictKey {
    return contentKey("E", encodeKey(this.type) + encodeKey(this.value));
  }
  override equals(other: Value): boolean {
    return other instanceof EnumValue && other.type === this.type && other.value === this.value;
  }
  override getField(name: string): Value | undefined {
    if (name === "name") return this.member;
    if (name === "value") return this.value;
    return undefined;
  }
  override fieldNames(): string[] {
    return ["name", "value"];
  }
}

/**
 * The constants of an enum-like type, by member name: `enumType("os", { Linux: "linux" })` gives
 * `{ Linux }` whose `type()` is "os" and `str()` is "linux". Put them in a {@link Namespace} for the
 * program to reach (`pkg.os.Linux`).
 */
export function enumType<const M extends Record<string, string>>(
  type: string,
  members: M,
): { [K in keyof M]: EnumValue } {
  const out: Record<string, EnumValue> = {};
  for (const [member, value] of Object.entries(members)) out[member] = new EnumValue(type, member, value);
  return out as { [K in keyof M]: EnumValue };
}

export { quote };
