import { isAbsolute, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { isInside } from "./paths.js";

describe("isInside", () => {
  it.each([
    ["/repo", "/repo", true],
    ["/repo", "/repo/a/b.yml", true],
    ["/repo", "/repo/..base.yml", true],
    ["/repo", "/repo/a/../b", true],
    ["/repo", "/repo/../other", false],
    ["/repo", "/", false],
    ["/", "/anything/at/all", true],
    ["/repo", "/repository", false],
    ["/repo/", "/repo/a", true],
    ["/repo", "/repo//a", true],
    ["/repo", "/repo/./a", true],
    ["/repo/a", "/repo/a/..", false],
    ["/repo", "repo/a", false],
  ])("%s holds %s: %s", (root, path, inside) => {
    expect(isInside(root, path)).toBe(inside);
  });

  it("answers as path.relative does, plain paths or not", () => {
    const byRelative = (root: string, path: string) => {
      const rel = relative(root, path);
      return !isAbsolute(rel) && rel.split(sep)[0] !== "..";
    };
    const segments = ["a", "b", "ab", ".", "..", "..a", ".a", "", "a.", "a..b"];
    // a small deterministic generator: every run checks the same 20,000 pairs
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    const randomPath = () => {
      const count = 1 + (next() % 4);
      const parts = Array.from({ length: count }, () => segments[next() % segments.length]);
      const text = `/${parts.join("/")}${next() % 5 === 0 ? "/" : ""}`;
      return next() % 10 === 0 ? text.slice(1) : text;
    };
    for (let i = 0; i < 20_000; i++) {
      const root = randomPath();
      const path = next() % 2 === 0 ? `${root}/${randomPath()}` : randomPath();
      expect(isInside(root, path), `${root} holds ${path}`).toBe(byRelative(root, path));
    }
  });
});
