import { describe, expect, it } from "vitest";
import { findEscapingLink, judgeSymlink, type LinkLookup, linkLeavesTree } from "./symlink-guard.js";

describe("linkLeavesTree", () => {
  it.each([
    ["bin/tool-link", "tool"],
    ["lib/libx.so", "libx.so.1.0"],
    ["etc/config", "../share/config"],
    ["a/b/c/link", "../../../top"],
    ["a/b/link", "../b/../../x"],
    ["link", "."],
    ["link", "./x/../y"],
    ["a/dangling", "../nowhere/at/all"],
  ])("keeps %s -> %s (inside)", (name, target) => {
    expect(linkLeavesTree(name, target)).toBe(false);
  });

  it.each([
    ["etc/passwd", "/etc/passwd"],
    ["bin/env", "/usr/bin/env"],
    ["root", "/"],
    ["up", ".."],
    ["etc/outside", "../../etc/passwd"],
    ["a/b/link", "../../../x"],
    ["a/link", "../../a/x"],
    ["a/link", "x/../../../a"],
    ["link", "nowhere/../../x"],
  ])("refuses %s -> %s (outside)", (name, target) => {
    expect(linkLeavesTree(name, target)).toBe(true);
  });
});

describe("findEscapingLink", () => {
  it("follows the tree's other links, as the kernel would", () => {
    // d/s is d itself, so d/s/../.. is the root's parent, though d/../.. would read as the root
    const links = new Map([
      ["d/s", "."],
      ["d/t", "s/../.."],
    ]);
    expect(linkLeavesTree("d/t", "s/../..")).toBe(false);
    expect(findEscapingLink(links)).toBe("d/t");
  });

  it("finds a chain that ends outside through an absolute link", () => {
    const links = new Map([
      ["bin/tool", "../lib/tool"],
      ["lib/tool", "/usr/bin/tool"],
    ]);
    expect(findEscapingLink(links)).toBe("bin/tool");
  });

  it("keeps chains and loops that stay inside", () => {
    const links = new Map([
      ["lib/libx.so", "libx.so.1"],
      ["lib/libx.so.1", "libx.so.1.0"],
      ["bin/lib", "../lib"],
      ["bin/x", "lib/libx.so"],
      ["loop/a", "b"],
      ["loop/b", "a"],
      ["self", "self/.."],
    ]);
    expect(findEscapingLink(links)).toBeUndefined();
  });

  it("goes on past a link that leads back into the tree", () => {
    const links = new Map([
      ["a/b/up", "../.."],
      ["a/b/out", "up/.."],
    ]);
    expect(findEscapingLink(links)).toBe("a/b/out");
  });
});

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
