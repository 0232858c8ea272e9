// Lists (mutable) and tuples (immutable): sequences of values.
import { checkDepth, compare, equals } from "./compare.js";
import { writeGuarded, writeValue } from "./format.js";
import {
  contentKey,
  type DictKey,
  encodeKey,
  keyOf,
  Mutable,
  type Printer,
  SValue,
  type Value,
} from "./value.js";

export function freezeValue(v: Value): void {
  if (typeof v === "object" && v !== null) v.freeze();
}

function writeElems(out: Printer, elems: readonly Value[]): void {
  for (let i = 0; i < elems.length; i++) {
    if (i > 0) out.write(", ");
    writeValue(out, elems[i] as Value);
  }
}

export function seqEquals(a: readonly Value[], b: readonly Value[], depth: number): boolean {
  if (a.length !== b.length) return false;
  checkDepth(depth);
  for (let i = 0; i < a.length; i++) if (!equals(a[i] as Value, b[i] as Value, depth + 1)) return false;
  return true;
}

export function seqCompare(a: readonly Value[], b: readonly Value[], depth: number): number {
  checkDepth(depth);
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] as Value;
    const y = b[i] as Value;
    if (!equals(x, y, depth + 1)) return compare(x, y, "<", depth + 1);
  }
  return a.length - b.length;
}

export class List extends Mutable {
  constructor(public elems: Value[] = []) {
    super();
  }
  override typeName(): string {
    return "list";
  }
  override writeRepr(out: Printer): void {
    writeGuarded(out, this, "[...]", () => {
      out.write("[");
      writeElems(out, this.elems);
      out.write("]");
    });
  }
  override truth(): boolean {
    return this.elems.length > 0;
  }
  override equals(other: Value, depth: number): boolean {
    return other instanceof List && seqEquals(this.elems, other.elems, depth);
  }
  override compareTo(other: Value, depth: number): number | undefined {
    return other instanceof List ? seqCompare(this.elems, other.elems, depth) : undefined;
  }
  override freeze(): void {
    if (this.frozen) return;
    this.frozen = true;
    for (const e of this.elems) freezeValue(e);
  }
  override len(): number {
    return this.elems.length;
  }
  override iterate(): Iterable<Value> {
    return this.elems;
  }
}

export class Tuple extends SValue {
  private frozen = false;
  constructor(readonly elems: readonly Value[]) {
    super();
  }
  override typeName(): string {
    return "tuple";
  }
  override writeRepr(out: Printer): void {
    out.write("(");
    writeElems(out, this.elems);
    out.write(this.elems.length === 1 ? ",)" : ")");
  }
  override truth(): boolean {
    return this.elems.length > 0;
  }
  override hashKey(): DictKey {
    let parts = "";
    for (const e of this.elems) parts += encodeKey(keyOf(e));
    return contentKey("T", parts);
  }
  override equals(other: Value, depth: number): boolean {
    return other instanceof Tuple && seqEquals(this.elems, other.elems, depth);
  }
  override compareTo(other: Value, depth: number): number | undefined {
    return other instanceof Tuple ? seqCompare(this.elems, other.elems, depth) : undefined;
  }
  override freeze(): void {
    if (this.frozen) return;
    this.frozen = true;
    for (const e of this.elems) freezeValue(e);
  }
  override len(): number {
    return this.elems.length;
  }
  override iterate(): Iterable<Value> {
    return this.elems;
  }
}

export const emptyTuple = new Tuple([]);

export function tuple(elems: readonly Value[]): Tuple {
  return elems.length === 0 ? emptyTuple : new Tuple(elems);
}
