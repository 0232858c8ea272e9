import { describe, expect, it } from "vitest";
import { basedLinks, relativeLinks } from "./routes.js";

describe("relativeLinks", () => {
  it.each([
    ["/", "/", "./"],
    ["/", "/all/", "all/"],
    ["/", "/assets/site.css", "assets/site.css"],
    ["/all/", "/", "../"],
    ["/all/", "/all/", "../all/"],
    ["/a/b/", "/assets/site.css", "../../assets/site.css"],
    ["/index/x/", "/x/ns/pkg/", "../../x/ns/pkg/"],
    ["/docs/a/b/", "/docs/", "../../../docs/"],
    ["/a/b/", "/?kw=cli", "../../?kw=cli"],
  ])("from %s to %s is %s", (from, to, expected) => {
    expect(relativeLinks(from)(to)).toBe(expected);
  });

  it("resolves every link back to its site path", () => {
    for (const from of ["/", "/all/", "/a/b/", "/docs/x/y/z/"]) {
      for (const to of ["/", "/all/", "/a/b/c/", "/assets/site.css"]) {
        const resolved = new URL(relativeLinks(from)(to), `https://h.test/base${from}`);
        expect(resolved.pathname).toBe(`/base${to}`);
      }
    }
  });
});

describe("basedLinks", () => {
  it("puts every path under the base", () => {
    expect(basedLinks("/catalog/")("/all/")).toBe("/catalog/all/");
    expect(basedLinks("/catalog")("/")).toBe("/catalog/");
    expect(basedLinks("/")("/assets/site.css")).toBe("/assets/site.css");
  });
});
