import { describe, expect, it } from "vitest";
import { relativeLinks } from "../model/routes.js";
import { docsSitePath, renderDocsPage, rewriteDocsHref } from "./render-docs.js";

describe("docs links", () => {
  it.each([
    ["more.md", "index.md", "/docs/more/"],
    ["../index.md#top", "a/b.md", "/docs/#top"],
    ["img/x.png?v=1", "a/index.md", "/docs/a/img/x.png?v=1"],
    ["/", "index.md", "/"],
    ["/all/?kw=cli", "a/b.md", "/all/?kw=cli"],
    ["#frag", "index.md", undefined],
    ["https://example.org/", "index.md", undefined],
    ["//evil.example/x", "index.md", undefined],
    ["/\\evil.example/x", "index.md", undefined],
    ["\\\\evil.example/x", "index.md", undefined],
    ["javascript:alert(1)", "index.md", undefined],
  ])("%s from %s names the site path %s", (href, from, expected) => {
    expect(docsSitePath(href, from)).toBe(expected);
  });

  it("names site paths relative to the page and leaves everything else as it is", () => {
    const link = relativeLinks("/docs/a/b/");
    expect(rewriteDocsHref("/", "a/b.md", link)).toBe("../../../");
    expect(rewriteDocsHref("c.md", "a/b.md", link)).toBe("../../../docs/a/c/");
    expect(rewriteDocsHref("https://example.org/", "a/b.md", link)).toBe("https://example.org/");
    expect(rewriteDocsHref("#x", "a/b.md", link)).toBe("#x");
  });

  it("renders links and site images page-relative, in Markdown and in raw HTML", () => {
    const source =
      '# T\n\n[catalog](/) [more](more.md) ![shot](/shot.png) ![rel](img/a.png)\n\n<p><a href="/all/">all</a> <img src="/raw.png" alt="raw"></p>\n';
    const { html } = renderDocsPage(source, "guide/index.md");
    expect(html).toContain('<a href="../../" rel="nofollow noopener">catalog</a>');
    expect(html).toContain('<a href="../../docs/guide/more/" rel="nofollow noopener">more</a>');
    expect(html).toContain('<img src="../../shot.png" alt="shot"');
    expect(html).toContain('<img src="../../docs/guide/img/a.png" alt="rel"');
    expect(html).toContain('<a href="../../all/" rel="nofollow noopener">all</a>');
    expect(html).toContain('<img src="../../raw.png" alt="raw"');
  });

  it("drops images that are neither https nor on the site", () => {
    for (const source of [
      "![x](//evil.example/x.png)",
      "![x](http://a.example/x.png)",
      '<img src="/\\evil.example/x.png">',
    ]) {
      expect(renderDocsPage(source, "index.md").html, source).not.toContain("<img");
    }
  });
});
