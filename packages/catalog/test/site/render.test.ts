import { describe, expect, it } from "vitest";
import { catalogPages } from "../../src/site/model/catalog-pages.js";
import { buildSiteModel } from "../../src/site/model/site-model.js";
import type { CatalogTab } from "../../src/site/model/types.js";
import type { SiteChrome } from "../../src/site/render/chrome.js";
import { catalogDocument, notFoundDocument, packageDocument } from "../../src/site/render/documents.js";
import { catalogConfig, digest, imageIndex, loadedIndex, loadedPackage } from "../support/model-fixtures.js";

const chrome: SiteChrome = {
  title: "T",
  wordmark: "T",
  nav: [],
  footerLinks: [],
  stylesheets: ["/assets/site.css"],
};
const observed = "2026-01-01T00:00:00Z";

function firstPage(tab: CatalogTab) {
  const [page] = catalogPages(tab);
  if (!page) throw new Error("a tab has at least one page");
  return page;
}

function model() {
  const deprecated = loadedPackage("x", "a/old", { status: "deprecated" });
  deprecated.root.deprecated_message = "Use a/new.";
  deprecated.root.superseded_by = "x/a/new";
  const yanked = loadedPackage("x", "a/gone", {
    status: "yanked",
    tags: { "1.0": { content: digest(7), observed, yanked: { at: observed, reason: "bad build" } } },
  });
  const fresh = loadedPackage("x", "a/new", { keywords: ["k"] });
  return buildSiteModel(
    catalogConfig([{ root: true }]),
    [loadedIndex("x", 0, [deprecated, yanked, fresh])],
    () => {},
  );
}

describe("package pages", () => {
  const [index] = model().indexes;
  const page = (path: string, successor?: string) => {
    const pkg = index?.packages.find((p) => p.path === path);
    if (!pkg) throw new Error(path);
    return packageDocument(chrome, pkg, undefined, successor);
  };

  it("shows the deprecated banner with its message and a link to the successor", () => {
    const html = page("a/old", "/a/new/");
    expect(html).toContain(
      '<div class="banner banner-deprecated" role="note"><strong>Deprecated.</strong> Use a/new.',
    );
    expect(html).toContain('Superseded by <a href="../../a/new/">x/a/new</a>');
  });

  it("shows the yanked banner and marks yanked tags with their reason", () => {
    const html = page("a/gone");
    expect(html).toContain('<div class="banner banner-yanked" role="note"><strong>Yanked.</strong>');
    expect(html).toContain('<span class="status status-yanked" title="bad build">yanked</span>');
  });

  it("marks the platform matrix with character references, so that a page of ASCII data is one byte a character", () => {
    // V8 keeps a string whose characters all fit in a byte at a byte each; one "✓" as text made a
    // whole page two bytes a character, and the page workers flattened and encoded twice the bytes
    const images = new Map([
      [
        digest(5),
        imageIndex([
          { os: "linux", arch: "amd64" },
          { os: "darwin", arch: "arm64" },
        ]),
      ],
    ]);
    const pkg = loadedPackage("x", "a/b", { tags: { latest: { content: digest(5), observed } }, images });
    const [view] =
      buildSiteModel(catalogConfig([{ root: true }]), [loadedIndex("x", 0, [pkg])], () => {}).indexes[0]
        ?.packages ?? [];
    if (!view) throw new Error("a/b");
    const html = packageDocument(chrome, view, "<p>readme</p>", undefined);
    expect(html).toContain('<td class="yes"><span class="mark" aria-hidden="true">&#x2713;</span>');
    expect(html).toContain('<td class="no"><span class="mark" aria-hidden="true">&#x2013;</span>');
    expect([...html].filter((c) => c.charCodeAt(0) > 0xff)).toEqual([]);
  });

  it("has no README section and no logo when the package has neither", () => {
    const html = page("a/new");
    expect(html).not.toContain("readme-h");
    expect(html).not.toContain("package-logo");
    expect(html).toContain("No platform information for the latest version.");
  });
});

describe("catalog pages", () => {
  it("marks the current tab and carries the filter facts on every card", () => {
    const m = model();
    const html = catalogDocument(chrome, m, m.defaultTab, firstPage(m.defaultTab), "/");
    expect(html).toContain('<a href="index/x/" aria-current="page" data-tab="x">');
    expect(html).toContain('data-name="x/a/new" data-kw="k" data-os data-status="active"');
    expect(html).toContain('data-name="x/a/old" data-kw data-os data-status="deprecated"');
    expect(html).toContain(
      '<form class="controls" aria-label="Filter packages" data-controls="true" hidden>',
    );
  });
});

/** Every href and src of a page, less fragments. */
function targets(html: string): string[] {
  return [...html.matchAll(/ (?:href|src)="([^"#][^"]*)"/g)].map((m) => m[1] ?? "");
}

describe("site paths", () => {
  const branded: SiteChrome = {
    ...chrome,
    logoHref: "/brand.svg",
    favicon: "/favicon.svg",
    siteUrl: "https://acme.github.io/catalog",
    nav: [
      { text: "docs", link: "/docs/" },
      { text: "Home", link: "https://example.org/" },
    ],
    footerLinks: [{ text: "Imprint", link: "/imprint/" }],
    stylesheets: ["/assets/site.css", "/assets/custom.css"],
  };

  it("names every internal target relative to the page, at any depth, and keeps absolute links", () => {
    const m = model();
    const pkg = m.indexes[0]?.packages.find((p) => p.path === "a/old");
    if (!pkg) throw new Error("a/old");
    const pages = {
      "/": catalogDocument(branded, m, m.defaultTab, firstPage(m.defaultTab), "/"),
      "/all/": catalogDocument(branded, m, m.defaultTab, firstPage(m.defaultTab), "/all/"),
      "/a/old/": packageDocument(
        branded,
        { ...pkg, logoHref: "/index/x/p/a/old/o/sha256/aa.svg" },
        undefined,
        "/a/new/",
      ),
    };
    for (const [route, html] of Object.entries(pages)) {
      const internal = targets(html).filter((t) => !t.startsWith("https:"));
      expect(
        internal.filter((t) => t.startsWith("/")),
        route,
      ).toEqual([]);
      // resolved against the page served under a base path, every one stays under it
      for (const target of internal) {
        expect(
          new URL(target, `https://acme.github.io/catalog${route}`).pathname,
          `${route} ${target}`,
        ).toMatch(/^\/catalog\//);
      }
      expect(html).toContain('href="https://example.org/"');
      expect(html).toContain(`<link rel="canonical" href="https://acme.github.io/catalog${route}"/>`);
    }
    expect(pages["/a/old/"]).toContain('<link rel="icon" href="../../favicon.svg"/>');
    expect(pages["/a/old/"]).toContain('<img class="brand-logo" src="../../brand.svg"');
    expect(pages["/a/old/"]).toContain(
      '<img class="package-logo" src="../../index/x/p/a/old/o/sha256/aa.svg"',
    );
    expect(pages["/a/old/"]).toMatch(
      /href="\.\.\/\.\.\/assets\/site.css".*href="\.\.\/\.\.\/assets\/custom.css"/s,
    );
    expect(pages["/all/"]).toContain('<a href="../docs/">docs</a>');
    expect(pages["/all/"]).toContain('<a href="../imprint/">Imprint</a>');
  });

  it("marks the current nav entry by its site path", () => {
    const m = model();
    const html = catalogDocument(
      { ...branded, nav: [{ text: "all", link: "/all/" }] },
      m,
      m.defaultTab,
      firstPage(m.defaultTab),
      "/all/",
    );
    expect(html).toContain('<a href="../all/" aria-current="page">all</a>');
  });

  it("names every target of the 404 page under the path of siteUrl, else under /", () => {
    const under = notFoundDocument(branded);
    const internal = targets(under).filter((t) => !t.startsWith("https:"));
    expect(internal.length).toBeGreaterThan(5);
    for (const target of internal) expect(target).toMatch(/^\/catalog\/([^/]|$)/);
    expect(under).toContain('<script src="/catalog/assets/site.js" defer>');
    expect(under).toContain('<a href="/catalog/all/">every package</a>');

    const { siteUrl: _, ...atRoot } = branded;
    for (const target of targets(notFoundDocument(atRoot)).filter((t) => !t.startsWith("https:"))) {
      expect(target).toMatch(/^\/([^/]|$)/);
      expect(target).not.toMatch(/^\/catalog\//);
    }
  });
});
