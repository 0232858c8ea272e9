import { describe, expect, it } from "vitest";
import { findDuplicateKey, lineColumn } from "./duplicate-keys.js";

const at = (text: string) => {
  const found = findDuplicateKey(text);
  if (found === undefined) return undefined;
  return { keyPath: found.keyPath, second: text.slice(found.offset), first: found.firstOffset };
};

describe("findDuplicateKey", () => {
  it("finds nothing in JSON whose objects each name a key once", () => {
    expect(findDuplicateKey('{"a":1,"b":{"a":2,"c":[{"a":3},{"a":4}]},"c":"\\"a\\":"}')).toBeUndefined();
    expect(findDuplicateKey('[{"a":1},{"a":1}]')).toBeUndefined();
    expect(findDuplicateKey('"a"')).toBeUndefined();
    expect(findDuplicateKey("{}")).toBeUndefined();
  });

  it("names the key path of the second occurrence, at any depth", () => {
    expect(at('{"brand":{"title":"a"},"brand":{}}')).toMatchObject({
      keyPath: "brand",
      second: '"brand":{}}',
      first: 1,
    });
    expect(at('{"sources":[{"path":"a"},{"path":"b","root":true,"path":"c"}]}')?.keyPath).toBe(
      "sources[1].path",
    );
    expect(at('{"ci":{"forge":"github","x":{"y":1,"y":2}}}')?.keyPath).toBe("ci.x.y");
    expect(at('[[{"a":1,"a":2}]]')?.keyPath).toBe("[0][0].a");
  });

  it("compares keys as decoded, and tells keys from string values", () => {
    expect(at('{"a":"b","\\u0061":1}')?.keyPath).toBe("a");
    expect(at('{"a":"a","b":"a"}')).toBeUndefined();
    expect(at('{"x":{"k":1},"y":{"k":1}}')).toBeUndefined();
    expect(at('{"__proto__":1,"__proto__":2}')?.keyPath).toBe("__proto__");
    expect(at('{"a b":1,"a b":2}')?.keyPath).toBe('["a b"]');
  });

  it("scans nesting deeper than a recursive scanner could", () => {
    const depth = 200_000;
    const text = `${"[".repeat(depth)}{"k":1,"k":2}${"]".repeat(depth)}`;
    expect(findDuplicateKey(text)?.keyPath.endsWith("[0][0].k")).toBe(true);
  });
});

describe("lineColumn", () => {
  it("counts lines and columns from 1", () => {
    const text = '{\n  "a": 1,\n  "a": 2\n}';
    expect(lineColumn(text, 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn(text, text.lastIndexOf('"a"'))).toEqual({ line: 3, column: 3 });
  });
});
