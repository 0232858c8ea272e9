import { describe, expect, it } from "vitest";
import { clipLines, clipText } from "./clip.js";

describe("clipText", () => {
  it.each([
    { text: "short", max: 10, expected: "short" },
    { text: "exactly10!", max: 10, expected: "exactly10!" },
    { text: "eleven char", max: 10, expected: "eleven ch…" },
    // 🟢 is two code units: a cut through it drops it whole
    { text: "abcdefgh🟢xyz", max: 10, expected: "abcdefgh…" },
  ])("$text within $max", ({ text, max, expected }) => {
    const clipped = clipText(text, max);
    expect(clipped).toBe(expected);
    expect(clipped.length).toBeLessThanOrEqual(max);
  });
});

describe("clipLines", () => {
  const lines = (n: number, width: number) =>
    Array.from({ length: n }, (_, i) => `${String(i).padStart(3, "0")}${"x".repeat(width - 3)}`);

  it("joins lines that fit as they are", () => {
    expect(clipLines(["a", "b", "c"], 5)).toBe("a\nb\nc");
  });

  it.each([
    { n: 10, width: 20, max: 100 },
    { n: 200, width: 40, max: 1024 },
    { n: 60, width: 17, max: 1024 },
    { n: 3, width: 30, max: 70 },
  ])(
    "cuts $n lines of $width at a line boundary within $max, saying how many were left out",
    ({ n, width, max }) => {
      const input = lines(n, width);
      const value = clipLines(input, max);
      expect(value.length).toBeLessThanOrEqual(max);
      const out = value.split("\n");
      const note = out.pop() as string;
      // every kept line is a whole input line, in order, and the note counts the rest
      expect(out).toEqual(input.slice(0, out.length));
      expect(note).toBe(`… and ${n - out.length} more`);
      // one more line would not have fitted beside the note
      const oneMore = [...input.slice(0, out.length + 1), `… and ${n - out.length - 1} more`].join("\n");
      expect(oneMore.length).toBeGreaterThan(max);
    },
  );

  it("clips a single line longer than the cap", () => {
    const value = clipLines(["y".repeat(2000)], 1024);
    expect(value).toHaveLength(1024);
    expect(value.endsWith("…")).toBe(true);
  });

  it("clips a first line longer than the cap and counts the others", () => {
    const value = clipLines(["y".repeat(2000), "z"], 1024);
    expect(value.length).toBeLessThanOrEqual(1024);
    expect(value.split("\n")).toEqual([expect.stringMatching(/^y+…$/), "… and 1 more"]);
  });
});
