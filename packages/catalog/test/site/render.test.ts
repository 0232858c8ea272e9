import { describe, expect, it } from "vitest";
import { buildSiteModel } from "../../src/site/model/site-model.js";
import type { SiteChrome } from "../../src/site/render/chrome.js";
import { catalogDocument, packageDocument } from "../../src/site/render/documents.js";
import { catalogConfig, digest, loadedIndex, loadedPackage } from "../support/model-fixtures.js";

const chrome: SiteChrome = {
  title: "T",
  wordmark: "T",
  nav: [],
  footerLinks: [],
  stylesheets: ["/assets/site.css"],
};
const observed = "2026-01-01T00:00:00Z";

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
    expect(html).toContain('Superseded by <a href="/a/new/">x/a/new</a>');
  });

  it("shows the yanked banner and marks yanked tags with their reason", () => {
    const html = page("a/gone");
    expect(html).toContain('<div class="banner banner-yanked" role="note"><strong>Yanked.</strong>');
    expect(html).toContain('<span class="status status-yanked" title="bad build">yanked</span>');
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
    const html = catalogDocument(chrome, m, m.defaultTab, "/");
    expect(html).toContain('<a href="/index/x/" aria-current="page" data-tab="x">');
    expect(html).toContain('data-name="x/a/new" data-kw="k" data-os data-status="active"');
    expect(html).toContain('data-name="x/a/old" data-kw data-os data-status="deprecated"');
    expect(html).toContain(
      '<form class="controls" aria-label="Filter packages" data-controls="true" hidden>',
    );
  });
});
