// The iterable views of strings and bytes: "abc".elems(), .codepoints(), .elem_ords(),
// .codepoint_ords(), b"abc".elems(). Strings are sequences of UTF-16 code units.
import { quoteBytes } from "./bytes.js";
import { quote } from "./format.js";
import { type Printer, SValue, type Value } from "./value.js";

export type StringViewKind = "elems" | "codepoints" | "elem_ords" | "codepoint_ords";

export class StringView extends SValue {
  constructor(
    readonly s: string,
    readonly kind: StringViewKind,
  ) {
    super();
  }
  override typeName(): string {
    return `string.${this.kind}`;
  }
  override writeRepr(out: Printer): void {
    out.write(`${quote(this.s)}.${this.kind}()`);
  }
  override *iterate(): Iterable<Value> {
    const s = this.s;
    switch (this.kind) {
      case "elems":
        for (let i = 0; i < s.length; i++) yield s[i] as string;
        return;
      case "elem_ords":
        for (let i = 0; i < s.length; i++) yield s.charCodeAt(i);
        return;
      case "codepoints":
        for (const ch of s) yield ch;
        return;
      default:
        for (const ch of s) yield ch.codePointAt(0) as number;
    }
  }
}

export class BytesElems extends SValue {
  constructor(readonly data: Uint8Array) {
    super();
  }
  override typeName(): string {
    return "bytes.elems";
  }
  override writeRepr(out: Printer): void {
    out.write(`${quoteBytes(this.data)}.elems()`);
  }
  override *iterate(): Iterable<Value> {
    for (const b of this.data) yield b;
  }
}
