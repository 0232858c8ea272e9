import { childPath, itemPath } from "./key-path.js";

/** A key written twice in one object: where, as a key path and as offsets into the text. */
export interface DuplicateKey {
  keyPath: string;
  /** Offset of the second occurrence's opening quote. */
  offset: number;
  /** Offset of the first occurrence's opening quote. */
  firstOffset: number;
}

/** An open object (its keys so far, the current one) or array (the current item). */
type Frame = { kind: "object"; seen: Map<string, number>; key: string } | { kind: "array"; index: number };

/** The key path of the current member of every open container: built only when reported. */
function currentPath(stack: Frame[]): string {
  let path = "";
  for (const frame of stack) {
    path = frame.kind === "array" ? itemPath(path, frame.index) : childPath(path, frame.key);
  }
  return path;
}

/** Offset just past the string literal opening at `start` (valid JSON: it is closed). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
  return i + 1;
}

/**
 * The first key that appears twice in one object of `text`, which must already be valid JSON
 * (`JSON.parse` keeps the last one silently; other parsers keep the first). Keys are compared as
 * decoded, so `"a"` and `"\u0061"` are the same key. Iterative: any nesting depth that
 * `JSON.parse` accepts is scanned without recursion.
 */
export function findDuplicateKey(text: string): DuplicateKey | undefined {
  const stack: Frame[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    switch (text[i]) {
      case "{":
        stack.push({ kind: "object", seen: new Map(), key: "" });
        expectKey = true;
        break;
      case "[":
        stack.push({ kind: "array", index: 0 });
        expectKey = false;
        break;
      case "}":
      case "]":
        stack.pop();
        expectKey = false;
        break;
      case ",": {
        const top = stack.at(-1);
        if (top?.kind === "array") top.index++;
        else expectKey = true;
        break;
      }
      case '"': {
        const end = stringEnd(text, i);
        const top = stack.at(-1);
        if (expectKey && top?.kind === "object") {
          const key = JSON.parse(text.slice(i, end)) as string;
          const first = top.seen.get(key);
          top.key = key;
          if (first !== undefined) return { keyPath: currentPath(stack), offset: i, firstOffset: first };
          top.seen.set(key, i);
          expectKey = false;
        }
        i = end - 1;
        break;
      }
      default:
        // whitespace, ":", numbers, true, false, null
        break;
    }
  }
  return undefined;
}

/** 1-based line and column (in UTF-16 code units, as editors count) of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}
