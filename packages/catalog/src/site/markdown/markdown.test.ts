import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { normalizeLink } from "./markdown.js";

const stock = new MarkdownIt();

/** A deterministic spread of link shapes around the fast path's edge. */
function corpus(): string[] {
  const hosts = [
    "docs.example.org",
    "a-b.c0.io",
    "EXAMPLE.org",
    "bücher.de",
    "xn--bcher-kva.de",
    "[::1]",
    "h_o.st",
  ];
  const ports = ["", ":8080", ":x"];
  const paths = [
    "",
    "/",
    "/a/b.c",
    "/a b",
    "/%20x",
    "/a?q=1",
    "/a#frag",
    "/ünï",
    "/~user/_x-y.",
    "/a\\b",
    "/a'(b)",
  ];
  const schemes = ["https://", "http://", "HTTP://", "ftp://", "//", "mailto:", "", " https://"];
  const urls: string[] = [];
  for (const scheme of schemes)
    for (const host of hosts)
      for (const port of ports) for (const path of paths) urls.push(`${scheme}${host}${port}${path}`);
  return urls.concat(["", "#top", "./docs/x.md", "../x", "javascript:alert(1)", "https://", "https:///x"]);
}

describe("the README link normalizer", () => {
  it("gives every link what markdown-it's own normalizer gives", () => {
    const urls = corpus();
    expect(urls.length).toBeGreaterThan(1000);
    for (const url of urls) expect(normalizeLink(url), url).toBe(stock.normalizeLink(url));
  });
});
