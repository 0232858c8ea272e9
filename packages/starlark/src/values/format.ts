// repr() and str() of any value, and the quoting of strings.
import { Printer, type Value } from "./value.js";

/** Appends the repr of `v`. */
export function writeValue(out: Printer, v: Value): void {
  switch (typeof v) {
    case "string":
      out.write(quote(v));
      return;
    case "number":
    case "bigint":
      out.write(String(v));
      return;
    case "boolean":
      out.write(v ? "True" : "False");
      return;
    default:
      if (v === null) out.write("None");
      else v.writeRepr(out);
  }
}

/** `repr(x)`. */
export function repr(v: Value): string {
  if (typeof v === "string") return quote(v);
  if (typeof v === "number") return String(v);
  const out = new Printer();
  writeValue(out, v);
  return out.s;
}

/** `str(x)`: a string is itself; other values as repr unless their type says otherwise. */
export function str(v: Value): string {
  if (typeof v === "string") return v;
  if (typeof v === "number") return String(v);
  if (typeof v !== "object" || v === null) return repr(v);
  const out = new Printer();
  v.writeStr(out);
  return out.s;
}

/**
 * Writes a container, printing `cut` instead of recursing when the container is already being
 * printed (a list that contains itself).
 */
export function writeGuarded(out: Printer, self: Value & object, cut: string, body: () => void): void {
  if (out.path.includes(self)) {
    out.write(cut);
    return;
  }
  out.path.push(self);
  try {
    body();
  } finally {
    out.path.pop();
  }
}

const simpleEscapes: Record<number, string> = {
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

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, "0");
}

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]$/u;

/**
 * A double-quoted literal denoting `s`. Control and other non-printable characters are escaped;
 * a lone surrogate (not valid text) is shown as `\uXXXX`, which is not a valid literal.
 */
export function quote(s: string): string {
  // fast path: printable ASCII without quote or backslash
  let plain = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c >= 0x7f || c === 34 || c === 92) {
      plain = false;
      break;
    }
  }
  if (plain) return `"${s}"`;
  let r = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const esc = simpleEscapes[c];
    if (esc !== undefined) {
      r += esc;
    } else if (c < 0x20 || c === 0x7f) {
      r += `\\x${hex(c, 2)}`;
    } else if (c < 0x7f) {
      r += s[i];
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        const pair = s.slice(i, i + 2);
        const cp = pair.codePointAt(0) as number;
        r += printable.test(pair) ? pair : `\\U${hex(cp, 8)}`;
        i++;
      } else {
        r += `\\u${hex(c, 4)}`;
      }
    } else if (c >= 0xd800 && c <= 0xdfff) {
      r += `\\u${hex(c, 4)}`;
    } else {
      const ch = s[i] as string;
      r += printable.test(ch) ? ch : `\\u${hex(c, 4)}`;
    }
  }
  return `${r}"`;
}
