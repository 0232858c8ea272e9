import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogPageSize } from "../../src/site/model/catalog-pages.js";
import { decodeSearchIndex, type SearchIndex, searchIndexGlobal } from "../../src/site/model/search-index.js";
import { buildSite } from "../support/fixture-site.js";
import { type SyntheticIndex, writeSyntheticIndex } from "../support/synthetic-index.js";

/** Two full pages and a part of a third. */
const packages = 2 * catalogPageSize + 10;

let dir: TempDir;
let out: string;
let synth: SyntheticIndex;

beforeAll(async () => {
  dir = await tempDir("catalog-pages-");
  synth = await writeSyntheticIndex(join(dir.path, "synth"), { packages, seed: 11 });
  ({ out } = await buildSite(dir.path, {
    index: synth.dir,
    config: { siteUrl: "https://acme.github.io/catalog" },
  }));
});

afterAll(async () => {
  await dir?.remove();
});

const html = (route: string) => readFile(join(out, route, "index.html"), "utf8");
const cardNames = (page: string) => [...page.matchAll(/ data-name="([^"]+)"/g)].map((m) => m[1]);
const sortedNames = () => synth.packages.map((p) => p.name).sort();

describe("the catalog view of a large index", () => {
  it("lists every package once, in name order, over pages of the tab", async () => {
    for (const tab of ["/all/", `/index/${synth.label}/`]) {
      const pages = [await html(tab), await html(`${tab}page/2/`), await html(`${tab}page/3/`)];
      expect(pages.map((page) => cardNames(page).length)).toEqual([catalogPageSize, catalogPageSize, 10]);
      expect(pages.flatMap(cardNames)).toEqual(sortedNames());
      await expect(html(`${tab}page/4/`)).rejects.toThrow(/ENOENT/);
    }
  });

  it("says which packages a page holds and links its neighbours relative to itself", async () => {
    const second = await html("/all/page/2/");
    expect(second).toContain(`Packages ${catalogPageSize + 1}–${2 * catalogPageSize} of ${packages}`);
    expect(second).toContain('<a href="../../../all/" rel="prev">Previous</a>');
    expect(second).toContain('<a href="../../../all/page/3/" rel="next">Next</a>');
    expect(second).toContain('<a href="../../../all/page/2/" aria-current="page" aria-label="Page 2">2</a>');
    expect(second).toContain("<title>All packages, page 2 · Test Catalog</title>");
  });

  it("opens on the default tab's first page, whose pager goes on under the tab", async () => {
    const front = await html("/");
    expect(cardNames(front)).toEqual(sortedNames().slice(0, catalogPageSize));
    expect(front).toContain(`<a href="index/${synth.label}/page/2/" rel="next">Next</a>`);
  });

  it("writes a search index of every package that the browser loads as a script", async () => {
    const script = await readFile(join(out, "assets/search-index.js"), "utf8");
    const context: Record<string, unknown> = {};
    context.self = context;
    runInNewContext(script, context);
    const index = context[searchIndexGlobal] as SearchIndex;
    const entries = decodeSearchIndex(index);
    expect(entries.map((e) => e.name).sort()).toEqual(sortedNames());
    const catalog = JSON.parse(await readFile(join(out, "catalog.json"), "utf8")) as {
      packages: { name: string; route: string; title: string; latest: string | null }[];
    };
    for (const pkg of catalog.packages) {
      const entry = entries.find((e) => e.name === pkg.name);
      expect({ route: entry?.route, title: entry?.title, latest: entry?.latest ?? null }).toEqual({
        route: pkg.route,
        title: pkg.title,
        latest: pkg.latest,
      });
    }
  });

  it("lists every page in the sitemap", async () => {
    const sitemap = await readFile(join(out, "sitemap.xml"), "utf8");
    for (const route of ["/all/page/2/", "/all/page/3/", `/index/${synth.label}/page/3/`])
      expect(sitemap).toContain(`<loc>https://acme.github.io/catalog${route}</loc>`);
  });
});
