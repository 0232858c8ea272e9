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
    ["/repo", "/repository", false],
  ])("%s holds %s: %s", (root, path, inside) => {
    expect(isInside(root, path)).toBe(inside);
  });
});
