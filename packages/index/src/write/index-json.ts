/**
 * The byte form of every JSON document the index writer produces: two-space indentation, `": "`
 * and `","` separators, every character outside printable ASCII escaped as `\uXXXX` (lowercase hex,
 * surrogate pairs beyond the BMP), and one final newline. It is the form the published index uses
 * (the real data in shared/fixtures/ocx-index re-encodes to its exact bytes), so a root that did not
 * change in content is written back byte for byte.
 */

/** A JSON value to encode. A Map keeps its insertion order for keys that a plain object would
 *  reorder (integer-like tags such as `"1"` come first in a JS object). */
export type JsonInput =
  | null
  | boolean
  | number
  | string
  | readonly JsonInput[]
  | ReadonlyMap<string, JsonInput>
  | { readonly [key: string]: JsonInput | undefined };

const ESCAPE = /[\u007f-\uffff]/g;

function encodeString(text: string): string {
  // JSON.stringify escapes quotes, backslashes, C0 controls and lone surrogates; the rest of the
  // non-printable-ASCII range is escaped here.
  return JSON.stringify(text).replace(
    ESCAPE,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

function entriesOf(
  value: ReadonlyMap<string, JsonInput> | { readonly [key: string]: JsonInput | undefined },
) {
  const entries: [string, JsonInput][] = [];
  const source = value instanceof Map ? value.entries() : Object.entries(value);
  for (const [key, item] of source as Iterable<[string, JsonInput | undefined]>) {
    if (item !== undefined) entries.push([key, item]);
  }
  return entries;
}

function encodeValue(value: JsonInput, indent: string, out: string[]): void {
  if (value === null || typeof value === "boolean") {
    out.push(String(value));
  } else if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`cannot encode ${value} as JSON`);
    out.push(JSON.stringify(value));
  } else if (typeof value === "string") {
    out.push(encodeString(value));
  } else if (Array.isArray(value)) {
    const items = value as readonly JsonInput[];
    if (items.length === 0) return void out.push("[]");
    const inner = `${indent}  `;
    out.push("[");
    items.forEach((item, i) => {
      out.push(i === 0 ? `\n${inner}` : `,\n${inner}`);
      encodeValue(item, inner, out);
    });
    out.push(`\n${indent}]`);
  } else {
    const entries = entriesOf(value as ReadonlyMap<string, JsonInput>);
    if (entries.length === 0) return void out.push("{}");
    const inner = `${indent}  `;
    out.push("{");
    entries.forEach(([key, item], i) => {
      out.push(i === 0 ? `\n${inner}` : `,\n${inner}`, encodeString(key), ": ");
      encodeValue(item, inner, out);
    });
    out.push(`\n${indent}}`);
  }
}

/** The index's byte form of `value` (see the module comment). Members whose value is `undefined`
 *  are left out, as JSON.stringify leaves them out. */
export function encodeIndexJson(value: JsonInput): Uint8Array {
  const out: string[] = [];
  encodeValue(value, "", out);
  out.push("\n");
  return Buffer.from(out.join(""), "utf8");
}
