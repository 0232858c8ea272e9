import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { encodeIndexJson } from "./index-json.js";
import { objectKeysAt, parseOrderedJson } from "./ordered-json.js";

const ocxIndex = fileURLToPath(new URL("../../../../../shared/fixtures/ocx-index/", import.meta.url));
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8");

describe("encodeIndexJson", () => {
  it("gives back the exact bytes of every document of the real published index", () => {
    const roots = readdirSync(join(ocxIndex, "p"), { recursive: true })
      .map(String)
      .filter((path) => /^[^/]+\/[^/]+\.json$/.test(path))
      .map((path) => join(ocxIndex, "p", path));
    expect(roots).toHaveLength(62);
    for (const file of [...roots, join(ocxIndex, "config.json"), join(ocxIndex, "c/index.json")]) {
      const bytes = readFileSync(file);
      const value = parseOrderedJson(bytes.toString("utf8"));
      expect(Buffer.from(encodeIndexJson(value as never)).equals(bytes), file).toBe(true);
    }
  });

  it("keeps integer-like keys where they were written, where a plain object moves them first", () => {
    const source = '{"tags": {"1.7.3": 1, "1": 2, "latest": 3, "22": 4}}';
    const value = parseOrderedJson(source);
    expect(objectKeysAt(value, ["tags"])).toEqual(["1.7.3", "1", "latest", "22"]);
    expect(Object.keys((JSON.parse(source) as { tags: object }).tags)).toEqual([
      "1",
      "22",
      "1.7.3",
      "latest",
    ]);
    expect(text(encodeIndexJson(value as never))).toBe(
      '{\n  "tags": {\n    "1.7.3": 1,\n    "1": 2,\n    "latest": 3,\n    "22": 4\n  }\n}\n',
    );
  });

  it("escapes everything outside printable ASCII as lowercase \\u escapes", () => {
    const encoded = text(encodeIndexJson({ s: 'a\u2014b\u007f\u00e9\u{1f600}\n\t\u0001"\\/' }));
    expect(encoded).toBe('{\n  "s": "a\\u2014b\\u007f\\u00e9\\ud83d\\ude00\\n\\t\\u0001\\"\\\\/"\n}\n');
    expect(JSON.parse(encoded)).toEqual({ s: 'a\u2014b\u007f\u00e9\u{1f600}\n\t\u0001"\\/' });
    expect(/^[\x20-\x7e\n]*$/.test(encoded)).toBe(true);
  });

  it("writes empty containers inline, leaves undefined members out, refuses non-finite numbers", () => {
    expect(text(encodeIndexJson({ a: [], b: {}, c: undefined, d: null, e: [1, true] }))).toBe(
      '{\n  "a": [],\n  "b": {},\n  "d": null,\n  "e": [\n    1,\n    true\n  ]\n}\n',
    );
    expect(() => encodeIndexJson({ n: Number.NaN })).toThrow(TypeError);
  });
});

describe("parseOrderedJson", () => {
  it("reads what JSON.parse reads, to the same values", () => {
    const samples = ['{"a": [1, -2.5e3, "x\\u00e9"], "b": {"c": null, "d": false}}', "[]", '"s"', " 3 "];
    const plain = (value: unknown): unknown =>
      value instanceof Map
        ? Object.fromEntries([...value].map(([k, v]) => [k, plain(v)]))
        : Array.isArray(value)
          ? value.map(plain)
          : value;
    for (const sample of samples) expect(plain(parseOrderedJson(sample))).toEqual(JSON.parse(sample));
  });

  it("refuses what is not one JSON value", () => {
    for (const bad of ["", "{", '{"a" 1}', "[1,]", "{} {}", '"\u0001"', "tru", '{"a":1,}']) {
      expect(() => parseOrderedJson(bad), bad).toThrow(SyntaxError);
    }
  });
});
