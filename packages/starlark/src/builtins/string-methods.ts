// The methods of strings. A string is a sequence of UTF-16 code units: indices, lengths and
// `elems()` count code units; `codepoints()` and `codepoint_ords()` walk code points.
import { StarlarkError } from "../errors.js";
import { indexRange, intArg, optIntArg, optStrArg, strArg, wrongType } from "../eval/args.js";
import { type Method, method } from "../eval/builtin.js";
import type { Dict } from "../values/dict.js";
import { repr, str } from "../values/format.js";
import { List, Tuple, tuple } from "../values/list.js";
import { toArray } from "../values/ops.js";
import { truth, typeName, type Value } from "../values/value.js";
import { StringView } from "../values/views.js";
import { isCased, isDigit, isLetter, isLowerChar, isNumber, isSpaceCode, isUpperChar } from "./unicode.js";

function all(s: string, test: (ch: string) => boolean): boolean {
  if (s.length === 0) return false;
  for (const ch of s) if (!test(ch)) return false;
  return true;
}

function isCut(ch: string, set: Set<string> | undefined): boolean {
  return set ? set.has(ch) : isSpaceCode(ch.codePointAt(0) as number);
}

/** Removes leading and/or trailing characters: white space, or the code points of `cutset`. */
function strip(s: string, cutset: string | undefined, left: boolean, right: boolean): string {
  const set = cutset === undefined ? undefined : new Set(cutset);
  let a = 0;
  let b = s.length;
  if (left) {
    while (a < b) {
      const ch = String.fromCodePoint(s.codePointAt(a) as number);
      if (!isCut(ch, set)) break;
      a += ch.length;
    }
  }
  if (right) {
    while (b > a) {
      const low = s.charCodeAt(b - 1);
      const w = low >= 0xdc00 && low <= 0xdfff && b - 2 >= a ? 2 : 1;
      const ch = s.slice(b - w, b);
      if (!isCut(ch, set)) break;
      b -= w;
    }
  }
  return s.slice(a, b);
}

function isSpaceAt(s: string, i: number): boolean {
  return isSpaceCode(s.charCodeAt(i));
}

/** Runs of white space (the characters of isSpaceCode). */
const spaceRun = /[\t\n\v\f\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

function splitWhitespace(s: string, maxsplit: number): string[] {
  if (maxsplit < 0) {
    const parts = s.split(spaceRun);
    if (parts.length > 0 && parts[0] === "") parts.shift();
    if (parts.length > 0 && parts[parts.length - 1] === "") parts.pop();
    return parts;
  }
  const out: string[] = [];
  let i = 0;
  const n = s.length;
  for (;;) {
    while (i < n && isSpaceAt(s, i)) i++;
    if (i >= n) break;
    if (maxsplit >= 0 && out.length === maxsplit) {
      out.push(s.slice(i));
      break;
    }
    let j = i;
    while (j < n && !isSpaceAt(s, j)) j++;
    out.push(s.slice(i, j));
    i = j;
  }
  return out;
}

function rsplitWhitespace(s: string, maxsplit: number): string[] {
  const out: string[] = [];
  let j = s.length;
  for (;;) {
    while (j > 0 && isSpaceAt(s, j - 1)) j--;
    if (j <= 0) break;
    if (maxsplit >= 0 && out.length === maxsplit) {
      out.push(s.slice(0, j));
      break;
    }
    let i = j;
    while (i > 0 && !isSpaceAt(s, i - 1)) i--;
    out.push(s.slice(i, j));
    j = i;
  }
  return out.reverse();
}

function split(s: string, sep: string, maxsplit: number): string[] {
  if (maxsplit < 0) return s.split(sep);
  const out: string[] = [];
  let i = 0;
  while (out.length < maxsplit) {
    const j = s.indexOf(sep, i);
    if (j < 0) break;
    out.push(s.slice(i, j));
    i = j + sep.length;
  }
  out.push(s.slice(i));
  return out;
}

function rsplit(s: string, sep: string, maxsplit: number): string[] {
  if (maxsplit < 0) return s.split(sep);
  const out: string[] = [];
  let j = s.length;
  while (out.length < maxsplit) {
    const i = s.lastIndexOf(sep, j - sep.length);
    if (i < 0 || j - sep.length < 0) break;
    out.push(s.slice(i + sep.length, j));
    j = i;
  }
  out.push(s.slice(0, j));
  return out.reverse();
}

function strList(items: string[]): List {
  return new List(items);
}

/** startswith/endswith: `affix` is a string or a tuple of strings. */
function hasAffix(s: string, a: Value[], end: boolean, what: string): boolean {
  const subject = a[1] === undefined && a[2] === undefined ? s : sliceRange(s, a[1], a[2], what);
  const affix = a[0] as Value;
  if (typeof affix === "string") return end ? subject.endsWith(affix) : subject.startsWith(affix);
  if (!(affix instanceof Tuple)) throw wrongType(what, affix, "string or tuple of strings");
  for (const e of affix.elems) {
    const p = strArg(e, what);
    if (end ? subject.endsWith(p) : subject.startsWith(p)) return true;
  }
  return false;
}

function sliceRange(s: string, start: Value | undefined, end: Value | undefined, what: string): string {
  const [x, y] = indexRange(s.length, start, end, what);
  return s.slice(x, y);
}

function find(s: string, args: Value[], last: boolean, what: string): number {
  const sub = strArg(args[0] as Value, `${what}: sub`);
  const [a, b] = indexRange(s.length, args[1], args[2], what);
  const slice = s.slice(a, b);
  const i = last ? slice.lastIndexOf(sub) : slice.indexOf(sub);
  return i < 0 ? -1 : a + i;
}

function title(s: string): string {
  let out = "";
  let prevCased = false;
  for (const ch of s) {
    if (isCased(ch)) {
      out += prevCased ? ch.toLowerCase() : ch.toUpperCase();
      prevCased = true;
    } else {
      out += ch;
      prevCased = false;
    }
  }
  return out;
}

function istitle(s: string): boolean {
  let cased = false;
  let prevCased = false;
  for (const ch of s) {
    if (isUpperChar(ch) || /^\p{Lt}$/u.test(ch)) {
      if (prevCased) return false;
      prevCased = true;
      cased = true;
    } else if (isLowerChar(ch)) {
      if (!prevCased) return false;
      prevCased = true;
      cased = true;
    } else {
      prevCased = false;
    }
  }
  return cased;
}

function replace(s: string, old: string, repl: string, limit: number): string {
  let count = limit;
  if (count < 0) {
    if (old !== "") return s.split(old).join(repl);
    count = s.length + 1;
  }
  let out = "";
  let i = 0;
  let n = 0;
  if (old === "") {
    while (n < count && i <= s.length) {
      out += repl;
      n++;
      if (i < s.length) out += s[i];
      i++;
    }
    return out + s.slice(i);
  }
  while (n < count) {
    const j = s.indexOf(old, i);
    if (j < 0) break;
    out += s.slice(i, j) + repl;
    i = j + old.length;
    n++;
  }
  return out + s.slice(i);
}

function splitlines(s: string, keepends: boolean): string[] {
  const out: string[] = [];
  let i = 0;
  let start = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === "\n" || c === "\r") {
      const end = c === "\r" && s[i + 1] === "\n" ? i + 2 : i + 1;
      out.push(s.slice(start, keepends ? end : i));
      i = end;
      start = end;
    } else {
      i++;
    }
  }
  if (start < s.length) out.push(s.slice(start));
  return out;
}

/** `S.format(*args, **kwargs)`. */
export function formatString(template: string, args: readonly Value[], kwargs: Dict): string {
  let out = "";
  let auto = 0;
  let mode: "none" | "auto" | "manual" = "none";
  let i = 0;
  const n = template.length;
  while (i < n) {
    const c = template[i] as string;
    if (c === "}") {
      if (template[i + 1] === "}") {
        out += "}";
        i += 2;
        continue;
      }
      throw new StarlarkError("format: single '}' in format string");
    }
    if (c !== "{") {
      out += c;
      i++;
      continue;
    }
    if (template[i + 1] === "{") {
      out += "{";
      i += 2;
      continue;
    }
    const close = template.indexOf("}", i + 1);
    if (close < 0) throw new StarlarkError("format: unmatched '{' in format string");
    let field = template.slice(i + 1, close);
    i = close + 1;
    let conv = "s";
    const colon = field.indexOf(":");
    if (colon >= 0) {
      if (field.slice(colon + 1) !== "")
        throw new StarlarkError("format: format spec features (after ':') are not supported");
      field = field.slice(0, colon);
    }
    const bang = field.indexOf("!");
    if (bang >= 0) {
      conv = field.slice(bang + 1);
      field = field.slice(0, bang);
      if (conv !== "s" && conv !== "r") throw new StarlarkError(`format: unknown conversion !${conv}`);
    }
    let value: Value;
    if (field === "") {
      if (mode === "manual")
        throw new StarlarkError("format: cannot switch from manual field numbering to automatic");
      mode = "auto";
      if (auto >= args.length) throw new StarlarkError("format: not enough arguments for format string");
      value = args[auto++] as Value;
    } else if (/^[0-9]+$/.test(field)) {
      if (mode === "auto")
        throw new StarlarkError("format: cannot switch from automatic field numbering to manual");
      mode = "manual";
      const k = Number(field);
      if (k >= args.length) throw new StarlarkError(`format: tuple index out of range: ${k}`);
      value = args[k] as Value;
    } else if (/^[\p{L}_][\p{L}\p{Nd}_]*$/u.test(field)) {
      const v = kwargs.get(field);
      if (v === undefined) throw new StarlarkError(`format: keyword ${field} not found`);
      value = v;
    } else if (/[.[]/.test(field)) {
      throw new StarlarkError(`format: attribute and element syntax are not supported: {${field}}`);
    } else {
      throw new StarlarkError(`format: invalid field name {${field}}`);
    }
    out += conv === "r" ? repr(value) : str(value);
  }
  return out;
}

type S = string;

export const stringMethods = new Map<string, Method>([
  [
    "capitalize",
    method<S>("capitalize()", (s) =>
      s.length === 0 ? s : (s[0] as string).toUpperCase() + s.slice(1).toLowerCase(),
    ),
  ],
  [
    "count",
    method<S>("count(sub, start?, end?)", (s, a) => {
      const sub = strArg(a[0] as Value, "count: sub");
      const [x, y] = indexRange(s.length, a[1], a[2], "count");
      const slice = s.slice(x, y);
      if (sub === "") return slice.length + 1;
      let n = 0;
      for (let i = slice.indexOf(sub); i >= 0; i = slice.indexOf(sub, i + sub.length)) n++;
      return n;
    }),
  ],
  ["elems", method<S>("elems()", (s) => new StringView(s, "elems"))],
  ["codepoints", method<S>("codepoints()", (s) => new StringView(s, "codepoints"))],
  ["elem_ords", method<S>("elem_ords()", (s) => new StringView(s, "elem_ords"))],
  ["codepoint_ords", method<S>("codepoint_ords()", (s) => new StringView(s, "codepoint_ords"))],
  ["endswith", method<S>("endswith(suffix, start?, end?)", (s, a) => hasAffix(s, a, true, "endswith"))],
  ["find", method<S>("find(sub, start?, end?)", (s, a) => find(s, a, false, "find"))],
  ["rfind", method<S>("rfind(sub, start?, end?)", (s, a) => find(s, a, true, "rfind"))],
  [
    "index",
    method<S>("index(sub, start?, end?)", (s, a) => {
      const i = find(s, a, false, "index");
      if (i < 0) throw new StarlarkError("index: substring not found");
      return i;
    }),
  ],
  [
    "rindex",
    method<S>("rindex(sub, start?, end?)", (s, a) => {
      const i = find(s, a, true, "rindex");
      if (i < 0) throw new StarlarkError("rindex: substring not found");
      return i;
    }),
  ],
  [
    "format",
    method<S>("format(*args, **kwargs)", (s, a) => formatString(s, (a[0] as Tuple).elems, a[1] as Dict)),
  ],
  ["isalnum", method<S>("isalnum()", (s) => all(s, (ch) => isLetter(ch) || isNumber(ch)))],
  ["isalpha", method<S>("isalpha()", (s) => all(s, isLetter))],
  ["isdigit", method<S>("isdigit()", (s) => all(s, isDigit))],
  ["isspace", method<S>("isspace()", (s) => all(s, (ch) => isSpaceCode(ch.codePointAt(0) as number)))],
  [
    "islower",
    method<S>("islower()", (s) => {
      let cased = false;
      for (const ch of s) {
        if (isUpperChar(ch)) return false;
        if (isLowerChar(ch)) cased = true;
      }
      return cased;
    }),
  ],
  [
    "isupper",
    method<S>("isupper()", (s) => {
      let cased = false;
      for (const ch of s) {
        if (isLowerChar(ch)) return false;
        if (isUpperChar(ch)) cased = true;
      }
      return cased;
    }),
  ],
  ["istitle", method<S>("istitle()", (s) => istitle(s))],
  [
    "join",
    method<S>("join(iterable)", (s, a) => {
      const items = toArray(a[0] as Value);
      let out = "";
      for (let i = 0; i < items.length; i++) {
        const x = items[i] as Value;
        if (typeof x !== "string") throw new StarlarkError(`join: in list, want string, got ${typeName(x)}`);
        out += i === 0 ? x : s + x;
      }
      return out;
    }),
  ],
  ["lower", method<S>("lower()", (s) => s.toLowerCase())],
  ["upper", method<S>("upper()", (s) => s.toUpperCase())],
  ["title", method<S>("title()", (s) => title(s))],
  ["strip", method<S>("strip(cutset=None)", (s, a) => strip(s, optStrArg(a[0], "strip"), true, true))],
  ["lstrip", method<S>("lstrip(cutset=None)", (s, a) => strip(s, optStrArg(a[0], "lstrip"), true, false))],
  ["rstrip", method<S>("rstrip(cutset=None)", (s, a) => strip(s, optStrArg(a[0], "rstrip"), false, true))],
  [
    "partition",
    method<S>("partition(sep)", (s, a) => {
      const sep = strArg(a[0] as Value, "partition");
      if (sep === "") throw new StarlarkError("partition: empty separator");
      const i = s.indexOf(sep);
      return i < 0 ? tuple([s, "", ""]) : tuple([s.slice(0, i), sep, s.slice(i + sep.length)]);
    }),
  ],
  [
    "rpartition",
    method<S>("rpartition(sep)", (s, a) => {
      const sep = strArg(a[0] as Value, "rpartition");
      if (sep === "") throw new StarlarkError("rpartition: empty separator");
      const i = s.lastIndexOf(sep);
      return i < 0 ? tuple(["", "", s]) : tuple([s.slice(0, i), sep, s.slice(i + sep.length)]);
    }),
  ],
  [
    "removeprefix",
    method<S>("removeprefix(prefix)", (s, a) => {
      const p = strArg(a[0] as Value, "removeprefix");
      return p !== "" && s.startsWith(p) ? s.slice(p.length) : s;
    }),
  ],
  [
    "removesuffix",
    method<S>("removesuffix(suffix)", (s, a) => {
      const p = strArg(a[0] as Value, "removesuffix");
      return p !== "" && s.endsWith(p) ? s.slice(0, s.length - p.length) : s;
    }),
  ],
  [
    "replace",
    method<S>("replace(old, new, count=-1)", (s, a) =>
      replace(
        s,
        strArg(a[0] as Value, "replace: old"),
        strArg(a[1] as Value, "replace: new"),
        intArg(a[2] as Value, "replace: count"),
      ),
    ),
  ],
  [
    "split",
    method<S>("split(sep=None, maxsplit=-1)", (s, a) => {
      const sep = optStrArg(a[0], "split: sep");
      const max = optIntArg(a[1], "split: maxsplit", -1);
      if (sep === undefined) return strList(splitWhitespace(s, max));
      if (sep === "") throw new StarlarkError("split: empty separator");
      return strList(split(s, sep, max));
    }),
  ],
  [
    "rsplit",
    method<S>("rsplit(sep=None, maxsplit=-1)", (s, a) => {
      const sep = optStrArg(a[0], "rsplit: sep");
      const max = optIntArg(a[1], "rsplit: maxsplit", -1);
      if (sep === undefined) return strList(rsplitWhitespace(s, max));
      if (sep === "") throw new StarlarkError("rsplit: empty separator");
      return strList(rsplit(s, sep, max));
    }),
  ],
  [
    "splitlines",
    method<S>("splitlines(keepends=False)", (s, a) => strList(splitlines(s, truth(a[0] as Value)))),
  ],
  [
    "startswith",
    method<S>("startswith(prefix, start?, end?)", (s, a) => hasAffix(s, a, false, "startswith")),
  ],
]);
