import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runCli, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildWithCli,
  catalogBin,
  ocxIndexFixture,
  writeCatalogProject,
} from "../support/catalog-project.js";
import { bundleClient } from "../support/client-bundle.js";
import { filesUnder, treeDigests } from "../support/file-tree.js";
import { writeSyntheticIndex } from "../support/synthetic-index.js";

const logoSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle cx="4" cy="4" r="4"/></svg>\n';

let dir: TempDir;
let out: string;
let config: string;
let built: Awaited<ReturnType<typeof buildWithCli>>;

beforeAll(async () => {
  bundleClient();
  dir = await tempDir("catalog-build-");
  const project = join(dir.path, "project");
  config = await writeCatalogProject(project, {
    index: ocxIndexFixture,
    docs: { "index.md": "# Guide\n\nSee [more](more.md).\n", "more.md": "# More\n\nText.\n" },
    publicFiles: { "robots.txt": "User-agent: *\n" },
    config: {
      brand: { title: "OCX Test", wordmark: "ocx", logo: "./brand.svg" },
      css: "./custom.css",
      siteUrl: "https://catalog.example/",
      description: "Every tool, mirrored.",
      favicon: "/favicon.ico",
      nav: [{ text: "Home page", link: "https://example.org/" }],
      footer: { links: [{ text: "Imprint", link: "/imprint/" }] },
    },
  });
  await writeFile(join(project, "brand.svg"), logoSvg);
  await writeFile(join(project, "custom.css"), "body { margin: 0 }\n");
  out = join(dir.path, "site");
  built = await runCli(catalogBin, ["build", config, "--out", out, "--format", "json"], { cwd: project });
});

afterAll(async () => {
  await dir?.remove();
});

const page = (path: string) => readFile(join(out, path), "utf8");

describe("pkg-catalog build of the real fixture", () => {
  it("exits 0 with a summary line on stderr and the report as JSON on stdout", () => {
    expect(built.stderr).toMatch(/^built 62 packages from 1 index into .*site in \d+\.\d s$/m);
    expect(built.code).toBe(0);
    const report = JSON.parse(built.stdout) as {
      packages: number;
      indexes: { label: string }[];
      warnings: string[];
    };
    expect(report.packages).toBe(62);
    expect(report.indexes.map((i) => i.label)).toEqual(["ocx.sh"]);
    expect(report.warnings).toEqual([]);
  });

  it("writes the catalog view, tabs, package pages, docs, 404, catalog JSON and sitemap", async () => {
    const files = new Set(await filesUnder(out));
    for (const file of [
      "index.html",
      "all/index.html",
      "index/ocx.sh/index.html",
      "astral-sh/uv/index.html",
      "docs/index.html",
      "docs/more/index.html",
      "404.html",
      "catalog.json",
      "sitemap.xml",
      "robots.txt",
      "brand.svg",
      "assets/site.css",
      "assets/custom.css",
      "assets/catalog.js",
      "assets/palette.js",
    ]) {
      expect(files.has(file), file).toBe(true);
    }
    expect(await page("docs/index.html")).toContain(
      '<a href="../docs/more/" rel="nofollow noopener">more</a>',
    );
    const sitemap = await page("sitemap.xml");
    expect(sitemap).toContain("<loc>https://catalog.example/astral-sh/uv/</loc>");
    expect(sitemap).toContain("<loc>https://catalog.example/docs/more/</loc>");
  });

  it("mirrors every verified index file byte for byte under index/<label>/ and at the site root", async () => {
    const mirrored = (await filesUnder(join(out, "index/ocx.sh"))).filter(
      // the tab's own pages beside the mirror: index.html and page/<n>/index.html
      (f) => f !== "index.html" && !f.startsWith("page/"),
    );
    expect(mirrored.length).toBe(
      (JSON.parse(built.stdout) as { indexes: { files: number }[] }).indexes[0]?.files,
    );
    expect(mirrored).toContain("c/index.json");
    expect(mirrored).toContain("config.json");
    for (const file of mirrored) {
      const original = await readFile(join(ocxIndexFixture, file));
      expect((await readFile(join(out, "index/ocx.sh", file))).equals(original), file).toBe(true);
      expect((await readFile(join(out, file))).equals(original), file).toBe(true);
    }
  });

  it("lists every package in catalog.json with its route, latest version and platforms", async () => {
    const json = JSON.parse(await page("catalog.json")) as {
      packages: {
        name: string;
        route: string;
        latest: string;
        platforms: string[];
        index: string;
        status: string;
      }[];
    };
    expect(json.packages).toHaveLength(62);
    const uv = json.packages.find((p) => p.name === "ocx.sh/astral-sh/uv");
    expect(uv).toMatchObject({
      route: "/astral-sh/uv/",
      index: "ocx.sh",
      status: "active",
      latest: "0.12.5",
    });
    expect(uv?.platforms).toContain("linux/amd64 (glibc)");
  });

  it("renders a package page with README, logo, matrix, tags, owners and annotations", async () => {
    const html = await page("astral-sh/uv/index.html");
    const logo = /<img class="package-logo" src="([^"]+)"/.exec(html)?.[1];
    expect(logo).toMatch(/^\.\.\/\.\.\/index\/ocx\.sh\/p\/astral-sh\/uv\/o\/sha256\/[0-9a-f]{64}\.svg$/);
    expect((await stat(join(out, "astral-sh/uv", logo ?? ""))).isFile()).toBe(true);
    expect(html).toContain('<h2 id="readme-h">README</h2>');
    expect(html).toContain(
      '<th scope="row"><span class="os os-linux">Linux</span><span class="libc"> glibc</span></th>',
    );
    expect(html).toContain('<a href="https://github.com/ocx-bot" rel="nofollow noopener">ocx-bot</a>');
    expect(html).toContain("Apache-2.0 OR MIT");
    expect(html).toContain('href="https://github.com/ocx-contrib/mirror-astral-sh"');
    expect(html).toMatch(/<code>0\.12\.5<\/code>.*<code>0\.12<\/code>/s);
    expect(html).toContain('<link rel="canonical" href="https://catalog.example/astral-sh/uv/"/>');
    expect(html).toContain('<meta property="og:url" content="https://catalog.example/astral-sh/uv/"/>');
  });

  it("shows the branding, nav, footer, favicon, description and both stylesheets in order", async () => {
    const html = await page("index.html");
    expect(html).toContain('<img class="brand-logo" src="brand.svg"');
    expect(html).toContain('<span class="wordmark">ocx</span>');
    expect(html).toMatch(
      /<a href="docs\/"[^>]*>docs<\/a>.*<a href="https:\/\/example.org\/"[^>]*>Home page<\/a>/s,
    );
    expect(html).toMatch(/<a href="imprint\/">Imprint<\/a>.*<a href="catalog.json"/s);
    expect(html).toContain('<link rel="icon" href="favicon.ico"/>');
    expect(html).toContain('<meta name="description" content="Every tool, mirrored."/>');
    expect(html).toMatch(/href="assets\/site.css".*href="assets\/custom.css"/s);
    expect(html).toMatch(
      /<a href="index\/ocx.sh\/" aria-current="page" data-tab="ocx.sh">ocx.sh <span class="count">62<\/span><span class="badge">default<\/span>/,
    );
  });

  it("has no inline script or style anywhere, and the CSP in every page", async () => {
    const pages = (await filesUnder(out)).filter((f) => f.endsWith(".html"));
    // packages, the catalog view (/, all and the index tab, each tab in two pages of 60), docs, 404
    expect(pages.length).toBe(62 + 5 + 2 + 1);
    for (const file of pages) {
      const html = await page(file);
      for (const tag of html.match(/<script[^>]*>/g) ?? [])
        expect(tag, file).toMatch(/ src="(\/|(\.\.\/)*)assets\/[a-z]+\.js"/);
      expect(html, file).not.toMatch(/<script[^>]*>[^<]/);
      expect(html, file).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
      expect(html, file).toContain(
        `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; img-src 'self' https: data:; script-src 'self'; style-src 'self'"/>`,
      );
    }
  });

  it("loads at most 8 KiB of JavaScript on the catalog view before any interaction", async () => {
    const html = await page("index.html");
    const scripts = [...html.matchAll(/<script[^>]* src="([^"]+)"/g)].map((m) => m[1] ?? "");
    expect(scripts).toEqual(["assets/theme.js", "assets/site.js", "assets/catalog.js"]);
    let total = 0;
    for (const src of scripts) total += (await stat(join(out, src))).size;
    expect(total).toBeLessThanOrEqual(8 * 1024);
    // the palette arrives only on first use
    expect(html).not.toContain("palette.js");
    // as a classic script (a module would not load from disk)
    const site = await page("assets/site.js");
    expect(site).toContain('"palette.js"');
    expect(site).not.toMatch(/\bimport\(|^import |\bexport\b/m);
  });
});

describe("pkg-catalog build failures", () => {
  it("leaves the previous output byte-identical and no temp dir when a build fails midway", async () => {
    const work = await tempDir("catalog-atomic-");
    try {
      const project = join(work.path, "project");
      // docs/guide.md renders to docs/guide/index.html, which docs/guide/index.html then claims again
      const docs = { "guide.md": "# Guide\n", "guide/index.html": "<p>clash</p>\n" };
      const cfg = await writeCatalogProject(project, { index: ocxIndexFixture });
      const site = join(work.path, "site");
      expect((await buildWithCli(cfg, site)).code).toBe(0);
      const before = await treeDigests(site);
      const failing = await writeCatalogProject(join(work.path, "failing"), { index: ocxIndexFixture, docs });
      const result = await buildWithCli(failing, site);
      expect(result.code).toBe(65);
      expect(result.stderr.trim().split("\n").at(-1)).toMatch(
        /^pkg-catalog: route collision: \/docs\/guide\/index.html is produced by /,
      );
      expect(await treeDigests(site)).toEqual(before);
      expect((await readdir(work.path)).sort()).toEqual(["failing", "project", "site"]);
    } finally {
      await work.remove();
    }
  });

  it("refuses a root namespace that a public file would shadow, in one line", async () => {
    const work = await tempDir("catalog-collide-");
    try {
      const cfg = await writeCatalogProject(join(work.path, "p"), {
        index: ocxIndexFixture,
        publicFiles: { "astral-sh": "not a directory\n" },
      });
      const result = await buildWithCli(cfg, join(work.path, "site"));
      expect(result.code).toBe(65);
      expect(result.stderr.trim().split("\n").at(-1)).toBe(
        "pkg-catalog: route collision: /astral-sh is claimed by publicDir entry astral-sh and by the root index ocx.sh",
      );
      expect(await readdir(work.path)).toEqual(["p"]);
    } finally {
      await work.remove();
    }
  });

  it("never replaces a non-empty directory that holds no earlier site (exit 64, nothing touched)", async () => {
    const work = await tempDir("catalog-foreign-");
    try {
      const cfg = await writeCatalogProject(join(work.path, "project"), { index: ocxIndexFixture });
      const foreign = join(work.path, "documents");
      await mkdir(foreign);
      await writeFile(join(foreign, "thesis.txt"), "years of work\n");
      await writeFile(join(foreign, "catalog.json"), '{"generator":"someone else"}\n');
      const before = await treeDigests(foreign);
      const result = await buildWithCli(cfg, foreign);
      expect(result.code).toBe(64);
      expect(result.stderr.trim().split("\n").at(-1)).toBe(
        `pkg-catalog: --out ${foreign} is not empty and holds no site built by pkg-catalog; refusing to replace it (choose an empty or new directory)`,
      );
      expect(await treeDigests(foreign)).toEqual(before);
      expect((await readdir(work.path)).sort()).toEqual(["documents", "project"]);
      const empty = join(work.path, "empty");
      await mkdir(empty);
      expect((await buildWithCli(cfg, empty)).code).toBe(0);
      expect((await buildWithCli(cfg, empty)).code).toBe(0);
      // an earlier site whose catalog.json was reformatted since is still known as one
      const catalogFile = join(empty, "catalog.json");
      await writeFile(catalogFile, JSON.stringify(JSON.parse(await readFile(catalogFile, "utf8")), null, 2));
      expect((await buildWithCli(cfg, empty)).code).toBe(0);
    } finally {
      await work.remove();
    }
  });

  it("exits 65 when the config file is missing", async () => {
    const work = await tempDir("catalog-missing-");
    try {
      const result = await runCli(catalogBin, [
        "build",
        join(work.path, "nope.json"),
        "--out",
        join(work.path, "s"),
      ]);
      expect(result.code).toBe(65);
      expect(result.stderr).toMatch(/^pkg-catalog: MISSING_FILE/);
    } finally {
      await work.remove();
    }
  });
});

describe("pkg-catalog build of several indexes", () => {
  it("routes a second index under its name, keeps excludeFromAll out of all, and lists it in catalog.json", async () => {
    const work = await tempDir("catalog-multi-");
    try {
      const synth = await writeSyntheticIndex(join(work.path, "synth"), { packages: 5, readmeBytes: 500 });
      const cfg = await writeCatalogProject(join(work.path, "p"), {
        index: ocxIndexFixture,
        links: { synth: synth.dir },
        config: {
          sources: [
            { path: "./index", root: true },
            { path: "./synth", excludeFromAll: true },
          ],
        },
      });
      const site = join(work.path, "site");
      const result = await buildWithCli(cfg, site);
      expect(result.code, result.stderr).toBe(0);
      const first = synth.packages[0];
      expect((await stat(join(site, "synth.dev", first?.path ?? "", "index.html"))).isFile()).toBe(true);
      expect((await stat(join(site, "index/synth.dev/c/index.json"))).isFile()).toBe(true);
      const all = await readFile(join(site, "all/index.html"), "utf8");
      expect(all).toContain('data-tab="all">all <span class="count">62</span>');
      expect(all).toContain('data-tab="synth.dev">synth.dev <span class="count">5</span>');
      expect(all).not.toContain(`data-name="${first?.name}"`);
      const tab = await readFile(join(site, "index/synth.dev/index.html"), "utf8");
      expect(tab).toContain(`data-name="${first?.name}"`);
      const json = JSON.parse(await readFile(join(site, "catalog.json"), "utf8")) as {
        packages: { name: string }[];
      };
      expect(json.packages).toHaveLength(67);
    } finally {
      await work.remove();
    }
  });
});
