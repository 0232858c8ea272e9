// Bytes: immutable sequences of 0..255; repr b"...", str the lossy UTF-8 decoding.
import { contentKey, type DictKey, type Printer, SValue, type Value } from "./value.js";

const decoder = new TextDecoder("utf-8");
const encoder = new TextEncoder();

export function utf8Encode(s: string): Uint8Array {
  return encoder.encode(s);
}

/** UTF-8 decoding; each invalid sequence becomes U+FFFD. */
export function utf8Decode(b: Uint8Array): string {
  return decoder.decode(b);
}

function latin1(b: Uint8Array): string {
  let s = "";
  for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode(...b.subarray(i, i + 8192));
  return s;
}

const byteEscapes: Record<number, string> = {
  7: "\\a",
  8: "\\b",
  9: "\\t",
  10: "\\n",
  11: "\\v",
  12: "\\f",
  13: "\\r",
  34: '\\"',
  92: "\\\\",
};

export class Bytes extends SValue {
  constructor(readonly data: Uint8Array) {
    super();
  }
  override typeName(): string {
    return "bytes";
  }
  override writeRepr(out: Printer): void {
    out.write(quoteBytes(this.data));
  }
  override writeStr(out: Printer): void {
    out.write(utf8Decode(this.data));
  }
  override truth(): boolean {
    return this.data.length > 0;
  }
  override hashKey(): DictKey {
    return contentKey("B", latin1(this.data));
  }
  override equals(other: Value): boolean {
    return other instanceof Bytes && compareBytes(this.data, other.data) === 0;
  }
  override compareTo(other: Value): number | undefined {
    return other instanceof Bytes ? compareBytes(this.data, other.data) : undefined;
  }
  override len(): number {
    return this.data.length;
  }
}

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

export function quoteBytes(b: Uint8Array): string {
  let r = 'b"';
  for (const c of b) {
    const esc = byteEscapes[c];
    if (esc !== undefined) r += esc;
    else if (c < 0x20 || c >= 0x7f) r += `\\x${c.toString(16).padStart(2, "0")}`;
    else r += String.fromCharCode(c);
  }
  return `${r}"`;
}

/** Index of `needle` in `hay` at or after `from`, or -1. */
export function bytesIndexOf(hay: Uint8Array, needle: Uint8Array, from = 0, to = hay.length): number {
  const last = to - needle.length;
  outer: for (let i = from; i <= last; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

export function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const r = new Uint8Array(a.length + b.length);
  r.set(a, 0);
  r.set(b, a.length);
  return r;
}
