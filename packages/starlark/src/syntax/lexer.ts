// The scanner: source text to tokens, with NEWLINE, INDENT and OUTDENT from the layout.
import { StarlarkSyntaxError } from "../errors.js";
import { type Int, normInt, parseDigits } from "../values/int.js";

export type TokenKind =
  | "IDENT"
  | "INT"
  | "FLOAT"
  | "STRING"
  | "BYTES"
  | "NEWLINE"
  | "INDENT"
  | "OUTDENT"
  | "EOF"
  | string; // punctuation and keywords: their own text

export interface Token {
  kind: TokenKind;
  line: number;
  col: number;
  /** IDENT: the name; STRING: the value. */
  text?: string;
  int?: Int;
  float?: number;
  bytes?: Uint8Array;
}

export const keywords = new Set([
  "and",
  "break",
  "continue",
  "def",
  "elif",
  "else",
  "for",
  "if",
  "in",
  "lambda",
  "load",
  "not",
  "or",
  "pass",
  "return",
  "while",
]);

const reserved = new Set([
  "as",
  "assert",
  "async",
  "await",
  "class",
  "del",
  "except",
  "finally",
  "from",
  "global",
  "import",
  "is",
  "nonlocal",
  "raise",
  "try",
  "with",
  "yield",
]);

const punct3 = new Set(["//=", "<<=", ">>="]);
const punct2 = new Set([
  "//",
  "**",
  "<<",
  ">>",
  "==",
  "!=",
  "<=",
  ">=",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "&=",
  "|=",
  "^=",
]);
const punct1 = new Set("+-*/%~&|^<>.,=;:()[]{}".split(""));

const identStart = /[\p{L}_]/u;
const identPart = /[\p{L}\p{Nd}\p{Mn}\p{Mc}\p{Pc}]/u;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isAsciiIdentPart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || isDigit(c) || c === 95;
}

const simpleEscapes: Record<string, number> = {
  a: 7,
  b: 8,
  f: 12,
  n: 10,
  r: 13,
  t: 9,
  v: 11,
  "\\": 92,
  "'": 39,
  '"': 34,
};

class Lexer {
  private i = 0;
  private line = 1;
  private lineStart = 0;
  private depth = 0;
  private readonly indents = [0];
  readonly tokens: Token[] = [];

  constructor(
    private readonly src: string,
    private readonly file: string,
  ) {}

  private error(message: string, line = this.line, col = this.i - this.lineStart + 1): never {
    throw new StarlarkSyntaxError("syntax", [{ pos: { file: this.file, line, col }, message }]);
  }

  private push(kind: TokenKind, line: number, col: number, extra?: Partial<Token>): void {
    this.tokens.push({ kind, line, col, ...extra });
  }

  private newline(): void {
    this.line++;
    this.lineStart = this.i;
  }

  run(): Token[] {
    const src = this.src;
    let atLineStart = true;
    for (;;) {
      if (atLineStart && this.depth === 0) {
        let n = 0;
        while (src.charCodeAt(this.i) === 32) {
          this.i++;
          n++;
        }
        const c = src[this.i];
        if (c === "\t") this.error("use of tab in indentation (indent with spaces)");
        if (c === "\r" || c === "\f") {
          this.i++;
          continue;
        }
        if (c === "#") {
          while (this.i < src.length && src[this.i] !== "\n") this.i++;
          continue;
        }
        if (c === "\n") {
          this.i++;
          this.newline();
          continue;
        }
        if (c === undefined) break;
        atLineStart = false;
        const top = this.indents[this.indents.length - 1] as number;
        if (n > top) {
          this.indents.push(n);
          this.push("INDENT", this.line, n + 1);
        } else if (n < top) {
          while (n < (this.indents[this.indents.length - 1] as number)) {
            this.indents.pop();
            this.push("OUTDENT", this.line, n + 1);
          }
          if (n !== this.indents[this.indents.length - 1]) {
            this.error("unindent does not match any outer indentation level", this.line, n + 1);
          }
        }
      }
      if (this.i >= src.length) break;
      const c = src.charCodeAt(this.i);
      if (c === 32 || c === 9 || c === 13 || c === 12) {
        this.i++;
        continue;
      }
      if (c === 35) {
        while (this.i < src.length && src[this.i] !== "\n") this.i++;
        continue;
      }
      if (c === 10) {
        const col = this.i - this.lineStart + 1;
        this.i++;
        if (this.depth === 0) {
          this.push("NEWLINE", this.line, col);
          atLineStart = true;
        }
        this.newline();
        continue;
      }
      if (c === 92) {
        if (src[this.i + 1] === "\n") {
          this.i += 2;
          this.newline();
          continue;
        }
        this.error("unexpected backslash (a line continuation must end its line)");
      }
      this.token();
    }
    const last = this.tokens[this.tokens.length - 1];
    const col = this.i - this.lineStart + 1;
    if (
      last &&
      this.depth === 0 &&
      last.kind !== "NEWLINE" &&
      last.kind !== "OUTDENT" &&
      last.kind !== "INDENT"
    ) {
      this.push("NEWLINE", this.line, col);
    }
    while (this.indents.length > 1) {
      this.indents.pop();
      this.push("OUTDENT", this.line, col);
    }
    this.push("EOF", this.line, col);
    return this.tokens;
  }

  private token(): void {
    const src = this.src;
    const start = this.i;
    const line = this.line;
    const col = start - this.lineStart + 1;
    const c = src.charCodeAt(start);
    const ch = src[start] as string;

    // string and bytes literals, with their prefixes
    if (ch === '"' || ch === "'") {
      this.string(start, false, false);
      return;
    }
    if (ch === "r" || ch === "b") {
      const n1 = src[start + 1];
      const n2 = src[start + 2];
      if (n1 === '"' || n1 === "'") {
        this.string(start + 1, ch === "r", ch === "b");
        return;
      }
      if ((ch === "r" && n1 === "b") || (ch === "b" && n1 === "r")) {
        if (n2 === '"' || n2 === "'") {
          this.string(start + 2, true, true);
          return;
        }
      }
    }

    if (isDigit(c) || (c === 46 && isDigit(src.charCodeAt(start + 1)))) {
      this.number();
      return;
    }

    if (
      isAsciiIdentPart(c) ||
      (c > 127 && identStart.test(String.fromCodePoint(src.codePointAt(start) ?? 0)))
    ) {
      let j = start;
      for (;;) {
        const d = src.charCodeAt(j);
        if (isAsciiIdentPart(d)) {
          j++;
          continue;
        }
        if (d > 127) {
          const cp = src.codePointAt(j) as number;
          const s = String.fromCodePoint(cp);
          if (identPart.test(s)) {
            j += s.length;
            continue;
          }
        }
        break;
      }
      const word = src.slice(start, j);
      this.i = j;
      if (keywords.has(word)) this.push(word, line, col);
      else if (reserved.has(word)) this.error(`keyword ${word} is reserved`, line, col);
      else this.push("IDENT", line, col, { text: word });
      return;
    }

    const three = src.slice(start, start + 3);
    const two = src.slice(start, start + 2);
    let p: string | undefined;
    if (punct3.has(three)) p = three;
    else if (punct2.has(two)) p = two;
    else if (punct1.has(ch)) p = ch;
    if (p === undefined) {
      this.error(
        ch === "!" ? "unexpected '!' (use 'not' for negation)" : `unexpected character ${JSON.stringify(ch)}`,
      );
    }
    this.i += p.length;
    if (p === "(" || p === "[" || p === "{") this.depth++;
    else if ((p === ")" || p === "]" || p === "}") && this.depth > 0) this.depth--;
    this.push(p, line, col);
  }

  private number(): void {
    const src = this.src;
    const start = this.i;
    const line = this.line;
    const col = start - this.lineStart + 1;
    const finish = (j: number): void => {
      const d = src.charCodeAt(j);
      if (isAsciiIdentPart(d) || d === 46)
        this.error("invalid character in number literal", line, j - this.lineStart + 1);
      this.i = j;
    };
    if (src[start] === "0" && /[xXoObB]/.test(src[start + 1] ?? "")) {
      const base = { x: 16, o: 8, b: 2 }[(src[start + 1] as string).toLowerCase() as "x" | "o" | "b"];
      let j = start + 2;
      while (isAsciiIdentPart(src.charCodeAt(j))) j++;
      const digits = src.slice(start + 2, j);
      const v = parseDigits(digits, base);
      if (v === undefined) this.error(`invalid base-${base} int literal ${src.slice(start, j)}`, line, col);
      this.i = j;
      this.push("INT", line, col, { int: v });
      return;
    }
    let j = start;
    while (isDigit(src.charCodeAt(j))) j++;
    let isFloat = false;
    if (src[j] === ".") {
      isFloat = true;
      j++;
      while (isDigit(src.charCodeAt(j))) j++;
    }
    if (src[j] === "e" || src[j] === "E") {
      let k = j + 1;
      if (src[k] === "+" || src[k] === "-") k++;
      if (isDigit(src.charCodeAt(k))) {
        isFloat = true;
        j = k;
        while (isDigit(src.charCodeAt(j))) j++;
      } else {
        this.error("invalid float literal: exponent has no digits", line, col);
      }
    }
    const text = src.slice(start, j);
    if (isFloat) {
      const f = Number(text);
      if (!Number.isFinite(f)) this.error(`floating-point literal too large: ${text}`, line, col);
      finish(j);
      this.push("FLOAT", line, col, { float: f });
      return;
    }
    if (text.length > 1 && text[0] === "0" && /[1-9]/.test(text)) {
      this.error(`invalid int literal ${text} (for octal, write 0o${text.replace(/^0+/, "")})`, line, col);
    }
    finish(j);
    this.push("INT", line, col, { int: text.length <= 15 ? Number(text) : normInt(BigInt(text)) });
  }

  /** A string or bytes literal whose opening quote is at `q`. */
  private string(q: number, raw: boolean, isBytes: boolean): void {
    const src = this.src;
    const line = this.line;
    const col = this.i - this.lineStart + 1;
    const quoteCh = src[q] as string;
    const triple = src.startsWith(quoteCh.repeat(3), q);
    let j = q + (triple ? 3 : 1);
    let text = "";
    const bytes: number[] = [];
    const addText = (s: string): void => {
      if (isBytes) for (const b of new TextEncoder().encode(s)) bytes.push(b);
      else text += s;
    };
    let chunkStart = j;
    const flush = (end: number): void => {
      if (end > chunkStart) addText(src.slice(chunkStart, end));
    };
    for (;;) {
      if (j >= src.length) this.error("unterminated string literal", line, col);
      const c = src[j] as string;
      if (c === quoteCh && (!triple || src.startsWith(quoteCh.repeat(3), j))) {
        flush(j);
        j += triple ? 3 : 1;
        break;
      }
      if (c === "\n") {
        if (!triple)
          this.error("unterminated string literal (a newline needs a triple-quoted string)", line, col);
        j++;
        this.i = j;
        this.newline();
        continue;
      }
      if (c !== "\\") {
        j++;
        continue;
      }
      // a backslash
      const next = src[j + 1];
      if (next === undefined) this.error("unterminated string literal", line, col);
      if (raw) {
        j += 2;
        if (next === "\n") {
          this.i = j;
          this.newline();
        }
        continue;
      }
      flush(j);
      const escCol = j - this.lineStart + 1;
      if (next === "\n") {
        j += 2;
        this.i = j;
        this.newline();
        chunkStart = j;
        continue;
      }
      const simple = simpleEscapes[next];
      if (simple !== undefined) {
        if (isBytes) bytes.push(simple);
        else text += String.fromCharCode(simple);
        j += 2;
      } else if (next >= "0" && next <= "7") {
        let k = j + 1;
        while (k < j + 4 && (src[k] ?? "") >= "0" && (src[k] ?? "") <= "7") k++;
        const v = Number.parseInt(src.slice(j + 1, k), 8);
        if (isBytes ? v > 255 : v > 127) {
          this.error(
            isBytes
              ? `octal escape \\${src.slice(j + 1, k)} exceeds 255`
              : `non-ASCII octal escape \\${src.slice(j + 1, k)} (use \\u00${v.toString(16).padStart(2, "0").toUpperCase()} for the character U+00${v.toString(16).toUpperCase()})`,
            line,
            escCol,
          );
        }
        if (isBytes) bytes.push(v);
        else text += String.fromCharCode(v);
        j = k;
      } else if (next === "x") {
        const h = src.slice(j + 2, j + 4);
        if (!/^[0-9a-fA-F]{2}$/.test(h))
          this.error("invalid escape sequence \\x (needs two hex digits)", line, escCol);
        const v = Number.parseInt(h, 16);
        if (!isBytes && v > 127) {
          this.error(
            `non-ASCII hex escape \\x${h} (use \\u00${h.toUpperCase()} for the character U+00${h.toUpperCase()})`,
            line,
            escCol,
          );
        }
        if (isBytes) bytes.push(v);
        else text += String.fromCharCode(v);
        j += 4;
      } else if (next === "u" || next === "U") {
        const n = next === "u" ? 4 : 8;
        const h = src.slice(j + 2, j + 2 + n);
        if (h.length !== n || !/^[0-9a-fA-F]+$/.test(h)) {
          this.error(`invalid escape sequence \\${next} (needs ${n} hex digits)`, line, escCol);
        }
        const cp = Number.parseInt(h, 16);
        if (cp > 0x10ffff) this.error(`invalid Unicode code point U+${h.toUpperCase()}`, line, escCol);
        if (cp >= 0xd800 && cp <= 0xdfff)
          this.error(`invalid Unicode code point U+${h.toUpperCase()} (a surrogate)`, line, escCol);
        addText(String.fromCodePoint(cp));
        j += 2 + n;
      } else {
        this.error(`invalid escape sequence \\${next}`, line, escCol);
      }
      chunkStart = j;
    }
    this.i = j;
    if (isBytes) this.push("BYTES", line, col, { bytes: Uint8Array.from(bytes) });
    else this.push("STRING", line, col, { text });
  }
}

/** Scans a whole file. Throws {@link StarlarkSyntaxError} at the first problem. */
export function scan(src: string, file: string): Token[] {
  return new Lexer(src.replace(/\r\n/g, "\n"), file).run();
}
