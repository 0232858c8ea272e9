// Dicts and sets: hash tables keyed by the canonical key of each value, iterated in insertion order.
import { StarlarkError } from "../errors.js";
import { checkDepth, equals } from "./compare.js";
import { repr, writeGuarded, writeValue } from "./format.js";
import { freezeValue } from "./list.js";
import { type DictKey, keyOf, Mutable, type Printer, type Value } from "./value.js";

export interface Entry {
  readonly k: Value;
  v: Value;
}

export class Dict extends Mutable {
  readonly map = new Map<DictKey, Entry>();

  override typeName(): string {
    return "dict";
  }
  get size(): number {
    return this.map.size;
  }
  /** The value at `k`, or undefined (fails for an unhashable key). */
  get(k: Value): Value | undefined {
    return this.map.get(keyOf(k))?.v;
  }
  has(k: Value): boolean {
    return this.map.has(keyOf(k));
  }
  set(k: Value, v: Value): void {
    this.checkMutable("insert into");
    const key = keyOf(k);
    const e = this.map.get(key);
    if (e) e.v = v;
    else this.map.set(key, { k, v });
  }
  /** Removes `k`, returning its value or undefined. */
  delete(k: Value): Value | undefined {
    this.checkMutable("delete from");
    const key = keyOf(k);
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    this.map.delete(key);
    return e.v;
  }
  clear(): void {
    this.checkMutable("clear");
    this.map.clear();
  }
  keys(): Value[] {
    const r: Value[] = [];
    for (const e of this.map.values()) r.push(e.k);
    return r;
  }
  values(): Value[] {
    const r: Value[] = [];
    for (const e of this.map.values()) r.push(e.v);
    return r;
  }
  entries(): IterableIterator<Entry> {
    return this.map.values();
  }
  override writeRepr(out: Printer): void {
    writeGuarded(out, this, "{...}", () => {
      out.write("{");
      let first = true;
      for (const e of this.map.values()) {
        if (!first) out.write(", ");
        first = false;
        writeValue(out, e.k);
        out.write(": ");
        writeValue(out, e.v);
      }
      out.write("}");
    });
  }
  override truth(): boolean {
    return this.map.size > 0;
  }
  override equals(other: Value, depth: number): boolean {
    if (!(other instanceof Dict) || other.map.size !== this.map.size) return false;
    checkDepth(depth);
    for (const [key, e] of this.map) {
      const o = other.map.get(key);
      if (o === undefined || !equals(e.v, o.v, depth + 1)) return false;
    }
    return true;
  }
  override freeze(): void {
    if (this.frozen) return;
    this.frozen = true;
    for (const e of this.map.values()) {
      freezeValue(e.k);
      freezeValue(e.v);
    }
  }
  override len(): number {
    return this.map.size;
  }
  override iterate(): Iterable<Value> {
    return this.keys();
  }
}

export class SSet extends Mutable {
  readonly map = new Map<DictKey, Value>();

  constructor(elems?: Iterable<Value>) {
    super();
    if (elems) for (const e of elems) this.map.set(keyOf(e), e);
  }
  override typeName(): string {
    return "set";
  }
  get size(): number {
    return this.map.size;
  }
  has(v: Value): boolean {
    return this.map.has(keyOf(v));
  }
  add(v: Value): void {
    this.checkMutable("insert into");
    const key = keyOf(v);
    if (!this.map.has(key)) this.map.set(key, v);
  }
  /** Removes `v`, reporting whether it was present. */
  discard(v: Value): boolean {
    this.checkMutable("delete from");
    return this.map.delete(keyOf(v));
  }
  values(): Value[] {
    return [...this.map.values()];
  }
  override writeRepr(out: Printer): void {
    writeGuarded(out, this, "set([...])", () => {
      if (this.map.size === 0) {
        out.write("set()");
        return;
      }
      out.write("set([");
      let first = true;
      for (const v of this.map.values()) {
        if (!first) out.write(", ");
        first = false;
        writeValue(out, v);
      }
      out.write("])");
    });
  }
  override truth(): boolean {
    return this.map.size > 0;
  }
  override equals(other: Value): boolean {
    if (!(other instanceof SSet) || other.map.size !== this.map.size) return false;
    for (const key of this.map.keys()) if (!other.map.has(key)) return false;
    return true;
  }
  override freeze(): void {
    if (this.frozen) return;
    this.frozen = true;
    for (const v of this.map.values()) freezeValue(v);
  }
  override len(): number {
    return this.map.size;
  }
  override iterate(): Iterable<Value> {
    return this.values();
  }
}

export function missingKey(k: Value): StarlarkError {
  return new StarlarkError(`key ${repr(k)} not in dict`);
}
