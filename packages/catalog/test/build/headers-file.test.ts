import { readdir, readFile } from "node:fs/promises";
import { join, posix, relative } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSiteModel } from "../../src/site/model/site-model.js";
import { checkTopLevelRoutes } from "../../src/site/model/top-level.js";
import { contentSecurityPolicy } from "../../src/site/render/chrome.js";
import { buildWithCli, ocxIndexFixture, writeCatalogProject } from "../support/catalog-project.js";
import { type BuiltSite, buildAndServe } from "../support/fixture-site.js";
import { catalogConfig, loadedIndex, loadedPackage } from "../support/model-fixtures.js";
import { writeSyntheticIndex } from "../support/synthetic-index.js";

/** A `_headers` rule: a path pattern and its headers, in file order. */
interface HeaderRule {
  pattern: string;
  headers: [string, string][];
}

/** Reads `_headers` as Netlify and Cloudflare Pages do: `#` comments, a path line, then indented
 *  `Name: value` lines. */
function parseHeaders(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "" || line.trim().startsWith("#")) continue;
    if (!/^\s/.test(line)) {
      rules.push({ pattern: line.trim(), headers: [] });
      continue;
    }
    const rule = rules.at(-1);
    const colon = line.indexOf(":");
    if (rule === undefined || colon < 0) throw new Error(`not a header line: ${JSON.stringify(line)}`);
    rule.headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return rules;
}

/** Their path matching: `*` is any run of characters, `/` included; `:name` one segment. */
function matches(pattern: string, path: string): boolean {
  const source = pattern
    .split(/(\*|:[A-Za-z]\w*)/)
    .map((part) =>
      part === "*" ? ".*" : part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("");
  return new RegExp(`^${source}$`).test(path);
}

/** Every header a request for `path` gets, rule by rule. */
function headersFor(rules: HeaderRule[], path: string): [string, string][] {
  return rules.filter((rule) => matches(rule.pattern, path)).flatMap((rule) => rule.headers);
}

const sitePolicy = `${contentSecurityPolicy}; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;
const svgPolicy = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

async function sitePaths(out: string): Promise<string[]> {
  const entries = await readdir(out, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => `/${relative(out, join(e.parentPath, e.name))}`);
}

describe("the _headers file of a built site", () => {
  let scratch: TempDir;
  let site: BuiltSite;
  let rules: HeaderRule[];

  beforeAll(async () => {
    scratch = await tempDir("catalog-headers-");
    // a second index, mirrored only under /index/<label>/, with an SVG logo on every package
    const synth = await writeSyntheticIndex(join(scratch.path, "synth"), {
      packages: 3,
      readmeBytes: 100,
      logoEvery: 1,
      logoOf: (i) => ({
        ext: "svg",
        bytes: new TextEncoder().encode(`<svg xmlns="http://www.w3.org/2000/svg"><text>${i}</text></svg>`),
      }),
    });
    site = await buildAndServe({
      index: ocxIndexFixture,
      links: { synth: synth.dir },
      config: {
        sources: [
          { path: "./index", root: true },
          { path: "./synth", label: "synth.dev" },
        ],
      },
    });
    rules = parseHeaders(await readFile(join(site.out, "_headers"), "utf8"));
  });
  afterAll(async () => {
    await site?.close();
    await scratch?.remove();
  });

  it("is written with exactly this content", async () => {
    expect(await readFile(join(site.out, "_headers"), "utf8")).toBe(
      [
        "# Response headers, for hosts that read this file (Netlify, Cloudflare Pages). Written by pkg-catalog.",
        "/*",
        `  Content-Security-Policy: ${sitePolicy}`,
        "  X-Content-Type-Options: nosniff",
        "  Referrer-Policy: strict-origin-when-cross-origin",
        "",
        "# An SVG (a mirrored package logo) opened by its URL runs no script on this origin.",
        "/*.svg",
        `  Content-Security-Policy: ${svgPolicy}`,
        "",
      ].join("\n"),
    );
  });

  it("gives every mirrored logo, of the root index and of another, the sandboxing policy", async () => {
    const svgs = (await sitePaths(site.out)).filter((path) => path.endsWith(".svg"));
    const rootLogos = svgs.filter((path) => /^\/p\/[^/]+\/[^/]+\/o\/sha256\/[0-9a-f]{64}\.svg$/.test(path));
    const mirrored = svgs.filter((path) => path.startsWith("/index/ocx.sh/p/"));
    const other = svgs.filter((path) => path.startsWith("/index/synth.dev/p/"));
    expect(rootLogos.length).toBeGreaterThan(50);
    expect(mirrored).toHaveLength(rootLogos.length);
    expect(other).toHaveLength(3);
    expect(svgs).toContain("/favicon.svg");
    for (const path of svgs) {
      expect(headersFor(rules, path), path).toEqual([
        ["Content-Security-Policy", sitePolicy],
        ["X-Content-Type-Options", "nosniff"],
        ["Referrer-Policy", "strict-origin-when-cross-origin"],
        ["Content-Security-Policy", svgPolicy],
      ]);
    }
  });

  it("covers the logo a package page shows, as the page links it", async () => {
    const route = "/astral-sh/uv/";
    const html = await readFile(join(site.out, route, "index.html"), "utf8");
    const href = /<img class="package-logo" src="([^"]+)"/.exec(html)?.[1];
    expect(href).toBeDefined();
    const path = posix.resolve(route, href ?? "");
    expect(path).toMatch(/\.svg$/);
    expect(headersFor(rules, path)).toContainEqual(["Content-Security-Policy", svgPolicy]);
  });

  it("gives pages and other files the site policy only", async () => {
    const others = (await sitePaths(site.out)).filter((path) => !path.endsWith(".svg"));
    expect(others).toContain("/index.html");
    expect(others).toContain("/astral-sh/uv/index.html");
    for (const path of [...others, "/", "/astral-sh/uv/", "/synth.dev/"]) {
      expect(headersFor(rules, path), path).toEqual([
        ["Content-Security-Policy", sitePolicy],
        ["X-Content-Type-Options", "nosniff"],
        ["Referrer-Policy", "strict-origin-when-cross-origin"],
      ]);
    }
  });
});

describe("the _headers name", () => {
  const modelWith = (label: string, path: string, root: boolean) =>
    buildSiteModel(
      catalogConfig([{ root }]),
      [loadedIndex(label, 0, [loadedPackage(label, path)])],
      () => {},
    );
  const inputs = { docs: false, sitemap: false, publicNames: [] };

  it("is claimed against a root namespace and an index label of that name", () => {
    expect(() => checkTopLevelRoutes(modelWith("ocx.sh", "_headers/a", true), inputs)).toThrow(
      "route collision: /_headers is claimed by the _headers file and by the root index ocx.sh",
    );
    expect(() => checkTopLevelRoutes(modelWith("_headers", "a/b", false), inputs)).toThrow(
      "route collision: /_headers is claimed by the _headers file and by the index _headers",
    );
  });

  it("is refused in publicDir as a route collision (exit 65), never merged or overwritten", async () => {
    const work = await tempDir("catalog-headers-clash-");
    try {
      const config = await writeCatalogProject(join(work.path, "p"), {
        index: ocxIndexFixture,
        publicFiles: { _headers: "/*\n  Access-Control-Allow-Origin: *\n" },
      });
      const result = await buildWithCli(config, join(work.path, "site"));
      expect(result.code).toBe(65);
      expect(result.stderr.trim().split("\n").at(-1)).toBe(
        "pkg-catalog: route collision: /_headers is claimed by the _headers file and by publicDir entry _headers",
      );
      expect(await readdir(work.path)).toEqual(["p"]);
    } finally {
      await work.remove();
    }
  });
});
