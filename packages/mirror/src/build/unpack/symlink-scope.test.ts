import { describe, expect, it } from "vitest";
import { judgeSymlink, type LinkLookup } from "./symlink-scope.js";

function lookupOf(entries: Record<string, string | null>): LinkLookup {
  return (path) => {
    if (!(path in entries)) return undefined;
    const target = entries[path];
    return typeof target === "string" ? { symlink: target } : "other";
  };
}

const none = lookupOf({});

describe("judgeSymlink", () => {
  it("accepts targets that stay inside", () => {
    expect(judgeSymlink(["bin", "alias"], "tool", none)).toBeUndefined();
    expect(judgeSymlink(["bin", "alias"], "../lib/tool", none)).toBeUndefined();
    expect(judgeSymlink(["top"], ".", none)).toBeUndefined();
    expect(judgeSymlink(["a", "b", "c"], "./../../x", none)).toBeUndefined();
  });

  it("refuses absolute targets and targets climbing out", () => {
    expect(judgeSymlink(["bin", "alias"], "/etc/passwd", none)).toBe("absolute");
    expect(judgeSymlink(["alias"], "../outside", none)).toBe("outside");
    expect(judgeSymlink(["bin", "alias"], "../../x", none)).toBe("outside");
    expect(judgeSymlink(["bin", "alias"], "../lib/../../x", none)).toBe("outside");
  });

  it("follows known links on the way, as the kernel would", () => {
    // `here` is the root itself, so `here/..` leaves it although the text looks harmless
    const lookup = lookupOf({ here: ".", deep: "a/b", "a/b": null });
    expect(judgeSymlink(["b"], "here/../x", lookup)).toBe("outside");
    expect(judgeSymlink(["b"], "deep/../../x", lookup)).toBeUndefined();
    expect(judgeSymlink(["b"], "deep/../../../x", lookup)).toBe("outside");
    expect(judgeSymlink(["b"], "escape/x", lookupOf({ escape: "/tmp" }))).toBe("absolute");
  });

  it("reports loops", () => {
    expect(judgeSymlink(["c"], "a/x", lookupOf({ a: "b", b: "a" }))).toBe("loop");
  });
});
