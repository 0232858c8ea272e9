import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderReadme } from "../../src/site/markdown/render-readme.js";

const corpusDir = new URL("./hostile/", import.meta.url);
const corpus = readdirSync(corpusDir).filter((name) => name.endsWith(".md"));
const logo = "/index/ocx.sh/p/a/b/o/sha256/aa.svg";

interface Tag {
  name: string;
  attributes: Map<string, string>;
}

/** Every start tag of the output with its attributes (the sanitiser always quotes values). */
function startTags(html: string): Tag[] {
  const tags: Tag[] = [];
  for (const match of html.matchAll(/<([a-zA-Z][\w:-]*)([^>]*)>/g)) {
    const attributes = new Map<string, string>();
    for (const attr of (match[2] ?? "").matchAll(/([^\s=/]+)(?:="([^"]*)")?/g)) {
      attributes.set((attr[1] ?? "").toLowerCase(), attr[2] ?? "");
    }
    tags.push({ name: (match[1] ?? "").toLowerCase(), attributes });
  }
  return tags;
}

function decode(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&amp;/g, "&")
    .replace(/&colon;/gi, ":");
}

const forbiddenTags = new Set([
  "script",
  "style",
  "iframe",
  "object",
  "embed",
  "form",
  "input",
  "button",
  "svg",
  "math",
  "link",
  "meta",
  "base",
  "body",
  "noscript",
  "template",
]);

describe("README sanitiser against a hostile corpus", () => {
  it("has a corpus", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(6);
  });

  for (const file of corpus) {
    it(`${file} renders with nothing executable`, () => {
      const html = renderReadme(readFileSync(new URL(file, corpusDir), "utf8"), logo);
      for (const tag of startTags(html)) {
        expect(forbiddenTags.has(tag.name), `<${tag.name}> in ${file}`).toBe(false);
        for (const [name, value] of tag.attributes) {
          expect(name.startsWith("on"), `${name} on <${tag.name}>`).toBe(false);
          expect(["style", "class", "id", "srcdoc", "formaction", "xlink:href"]).not.toContain(name);
          if (name === "href" || name === "src") {
            const url = [...decode(value)]
              .filter((c) => c.charCodeAt(0) > 0x20)
              .join("")
              .toLowerCase();
            expect(url).not.toMatch(/^(javascript|data|vbscript):/);
            expect(url.startsWith("//")).toBe(false);
          }
          if (tag.name === "img" && name === "src")
            expect(value.startsWith("https://") || value === logo).toBe(true);
        }
        if (tag.name === "a" && tag.attributes.has("href"))
          expect(tag.attributes.get("rel")).toBe("nofollow noopener");
      }
      expect(html).not.toMatch(/<\s*script/i);
    });
  }

  it("keeps ordinary Markdown, safe links and https images", () => {
    const html = renderReadme(
      "# Title\n\nSome *text* and [a link](https://example.com/x) and [mail](mailto:a@example.com).\n\n" +
        `![logo](${logo}) ![remote](https://img.example/b.png)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n\`\`\`sh\necho hi\n\`\`\`\n`,
      logo,
    );
    expect(html).toContain("<h3>Title</h3>");
    expect(html).toContain('<a href="https://example.com/x" rel="nofollow noopener">a link</a>');
    expect(html).toContain('href="mailto:a@example.com"');
    expect(html).toMatch(new RegExp(`<img src="${logo}" alt="logo"`));
    expect(html).toContain('<img src="https://img.example/b.png" alt="remote"');
    expect(html).toContain("<table>");
    expect(html).toContain("<pre><code>echo hi\n</code></pre>");
  });

  it("keeps table alignment as an attribute, never a style", () => {
    const html = renderReadme(readFileSync(new URL("markdown-only.md", corpusDir), "utf8"), logo);
    expect(html).toContain('<th align="center">center</th>');
    expect(html).not.toContain("style=");
    expect(html).not.toContain("class=");
  });

  it("renders raw HTML and Markdown syntax alike through one policy", () => {
    const markdownOnly = renderReadme("# H\n\n[x](https://a.example/) ![i](https://a.example/i.png)", logo);
    const withHtml = renderReadme(
      "# H\n\n[x](https://a.example/) ![i](https://a.example/i.png) <b>b</b>",
      logo,
    );
    for (const html of [markdownOnly, withHtml]) {
      expect(html).toContain("<h3>H</h3>");
      expect(html).toContain('<a href="https://a.example/" rel="nofollow noopener">x</a>');
      expect(html).toContain('<img src="https://a.example/i.png" alt="i"');
    }
  });

  it("drops images that are neither https nor the package's own logo", () => {
    const html = renderReadme(
      "![a](http://x.example/a.png) ![b](other.png) ![c](data:image/png;base64,AA==)",
      logo,
    );
    expect(html).not.toContain("<img");
  });
});
