/**
 * A JSON reader that keeps the order of every object's keys as written (objects become Maps).
 * JSON.parse cannot: a JS object lists integer-like keys (`"1"`, `"22"`) first, and tags are such
 * keys. The writer uses it only on documents that JSON.parse has already accepted.
 */

export type OrderedJson = null | boolean | number | string | OrderedJson[] | Map<string, OrderedJson>;

const WHITESPACE = /[ \t\n\r]*/y;
/** A string token; JSON.parse of the token then refuses what JSON does not allow inside one. */
const STRING = /"(?:[^"\\]|\\.)*"/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const LITERAL = /true|false|null/y;

class Reader {
  pos = 0;
  constructor(readonly text: string) {}

  fail(): never {
    throw new SyntaxError(`not valid JSON at offset ${this.pos}`);
  }

  skip(): void {
    WHITESPACE.lastIndex = this.pos;
    WHITESPACE.exec(this.text);
    this.pos = WHITESPACE.lastIndex;
  }

  token(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.pos;
    const match = pattern.exec(this.text);
    if (match === null) return undefined;
    this.pos = pattern.lastIndex;
    return match[0];
  }

  expect(char: string): void {
    this.skip();
    if (this.text[this.pos] !== char) this.fail();
    this.pos++;
  }

  /** Consumes `char` when it comes next. */
  accept(char: string): boolean {
    this.skip();
    if (this.text[this.pos] !== char) return false;
    this.pos++;
    return true;
  }

  string(): string {
    this.skip();
    const token = this.token(STRING) ?? this.fail();
    return JSON.parse(token) as string;
  }

  value(): OrderedJson {
    this.skip();
    const char = this.text[this.pos];
    if (char === "{") return this.object();
    if (char === "[") return this.array();
    if (char === '"') return this.string();
    const token = this.token(LITERAL) ?? this.token(NUMBER) ?? this.fail();
    return JSON.parse(token) as OrderedJson;
  }

  object(): Map<string, OrderedJson> {
    const map = new Map<string, OrderedJson>();
    this.expect("{");
    if (this.accept("}")) return map;
    do {
      const key = this.string();
      this.expect(":");
      map.set(key, this.value());
    } while (this.accept(","));
    this.expect("}");
    return map;
  }

  array(): OrderedJson[] {
    const items: OrderedJson[] = [];
    this.expect("[");
    if (this.accept("]")) return items;
    do items.push(this.value());
    while (this.accept(","));
    this.expect("]");
    return items;
  }
}

/** Parses JSON text keeping key order; throws SyntaxError on anything that is not one JSON value. */
export function parseOrderedJson(text: string): OrderedJson {
  const reader = new Reader(text);
  const value = reader.value();
  reader.skip();
  if (reader.pos !== text.length) reader.fail();
  return value;
}

/** The keys of the object at `path` (member names from the top), in written order; empty when
 *  there is no object there. */
export function objectKeysAt(value: OrderedJson, path: readonly string[]): string[] {
  let node: OrderedJson | undefined = value;
  for (const key of path) node = node instanceof Map ? node.get(key) : undefined;
  return node instanceof Map ? [...node.keys()] : [];
}
