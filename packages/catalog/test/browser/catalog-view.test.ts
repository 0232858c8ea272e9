import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { catalogPageSize } from "../../src/site/model/catalog-pages.js";
import { ocxIndexFixture } from "../support/catalog-project.js";
import { useSiteInChromium, useWatchedPage } from "../support/chromium-site.js";
import { buildAndServe } from "../support/fixture-site.js";
import { type SyntheticIndex, writeSyntheticIndex } from "../support/synthetic-index.js";

const fixtureCount = Object.keys(
  (JSON.parse(await readFile(join(ocxIndexFixture, "c/index.json"), "utf8")) as { packages: object })
    .packages,
).length;

describe("the catalog view in Chromium", () => {
  let scratch: TempDir;
  let synth: SyntheticIndex;
  /** A third index kept out of the `all` tab (`excludeFromAll`). */
  let hidden: SyntheticIndex;

  const browser = useSiteInChromium(async () => {
    scratch = await tempDir("catalog-view-");
    synth = await writeSyntheticIndex(join(scratch.path, "synth"), { packages: 30, seed: 3 });
    hidden = await writeSyntheticIndex(join(scratch.path, "hidden"), {
      packages: 5,
      seed: 4,
      label: "hidden.dev",
    });
    return buildAndServe({
      index: ocxIndexFixture,
      links: { synth: synth.dir, hidden: hidden.dir },
      config: {
        sources: [
          { path: "./index", root: true },
          { path: "./synth" },
          { path: "./hidden", excludeFromAll: true },
        ],
      },
    });
  });
  afterAll(async () => {
    await scratch?.remove();
  });
  const view = useWatchedPage(browser);

  const cards = () => view.page.locator("[data-list] .card:visible");
  const cardAttribute = async (name: string) =>
    cards().evaluateAll((els, attr) => els.map((el) => el.getAttribute(attr) ?? ""), `data-${name}`);
  const query = () => new URL(view.page.url()).searchParams;
  /** The names the `all` tab lists: the fixture's and the synthetic index's. */
  const allNames = async () => {
    const catalog = JSON.parse(await readFile(join(ocxIndexFixture, "c/index.json"), "utf8")) as {
      packages: Record<string, unknown>;
    };
    return [
      ...Object.keys(catalog.packages).map((path) => `ocx.sh/${path}`),
      ...synth.packages.map((p) => p.name),
    ];
  };

  it("has one tab per index plus all, with counts and the default badge, and switches between them", async () => {
    await view.page.goto(browser.site.url("/"));
    const tabs = view.page.locator("nav.tabs a[data-tab]");
    expect(await tabs.evaluateAll((els) => els.map((el) => el.getAttribute("data-tab")))).toEqual([
      "all",
      "ocx.sh",
      synth.label,
      hidden.label,
    ]);
    const count = (id: string) => view.page.locator(`nav.tabs a[data-tab="${id}"] .count`).innerText();
    expect(await count("all")).toBe(String(fixtureCount + synth.packages.length));
    expect(await count("ocx.sh")).toBe(String(fixtureCount));
    expect(await count(synth.label)).toBe(String(synth.packages.length));
    expect(await count(hidden.label)).toBe(String(hidden.packages.length));
    const current = view.page.locator('nav.tabs a[aria-current="page"]');
    expect(await current.getAttribute("data-tab")).toBe("ocx.sh");
    expect(await current.locator(".badge").innerText()).toBe("default");
    // the fixture's packages fill one page and a bit of the next
    await expect.poll(() => cards().count()).toBe(catalogPageSize);

    await view.page.locator(`nav.tabs a[data-tab="${synth.label}"]`).click();
    await view.page.waitForURL(`**/index/${synth.label}/`);
    await expect.poll(() => cards().count()).toBe(synth.packages.length);
    expect((await cardAttribute("name")).sort()).toEqual(synth.packages.map((p) => p.name).sort());
    expect(await view.page.locator("[data-pager]").count()).toBe(0);

    await view.page.locator('nav.tabs a[data-tab="all"]').click();
    await view.page.waitForURL("**/all/");
    await expect.poll(() => cards().count()).toBe(catalogPageSize);
    expect(await view.page.locator("[data-count]").innerText()).toBe(
      `Packages 1–${catalogPageSize} of ${fixtureCount + synth.packages.length}`,
    );
  });

  it("pages through a tab without JavaScript: every package once, in name order, each page linking its neighbours", async () => {
    const context = await browser.chromium.browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(browser.site.url("/all/"));
      const names: string[] = [];
      for (;;) {
        names.push(
          ...(await page
            .locator("[data-list] .card")
            .evaluateAll((els) => els.map((el) => el.getAttribute("data-name") ?? ""))),
        );
        const next = page.locator('[data-pager] a[rel="next"]');
        if ((await next.count()) === 0) break;
        await next.click();
        await page.waitForLoadState("load");
      }
      expect(page.url()).toBe(browser.site.url("/all/page/2/"));
      expect(await page.locator('[data-pager] a[aria-current="page"]').innerText()).toBe("2");
      const expected = [...(await allNames())].sort();
      expect(names).toEqual(expected);
      await page.locator('[data-pager] a[rel="prev"]').click();
      await page.waitForURL(browser.site.url("/all/"));
    } finally {
      await context.close();
    }
  });

  it("loads the search index only when someone searches, and finds a package of a later page", async () => {
    const requested: string[] = [];
    view.page.on("request", (request) => requested.push(new URL(request.url()).pathname));
    await view.page.goto(browser.site.url("/all/"));
    await view.page.waitForLoadState("networkidle");
    expect(requested.filter((path) => path.includes("search"))).toEqual([]);
    const onLastPage = (await allNames()).sort().at(-1) ?? "";
    await view.page.locator("#f-q").fill(onLastPage);
    await expect.poll(() => cardAttribute("name")).toEqual([onLastPage]);
    expect(requested).toContain("/assets/search-index.js");
    expect(await view.page.locator("[data-pager]").isHidden()).toBe(true);
    expect(await view.page.locator("[data-count]").innerText()).toBe(
      `1 of ${fixtureCount + synth.packages.length} packages`,
    );
    // an empty query puts the pre-rendered page back as it was
    await view.page.locator("#f-q").fill("");
    await expect.poll(() => cards().count()).toBe(catalogPageSize);
    expect(await view.page.locator("[data-pager]").isVisible()).toBe(true);
  });

  it("shows a page of results at a time, and more on request", async () => {
    await view.page.goto(browser.site.url("/all/"));
    await view.page.locator("#f-sort").selectOption("title");
    await expect.poll(() => cards().count()).toBe(catalogPageSize);
    const more = view.page.locator("button.more");
    const left = fixtureCount + synth.packages.length - catalogPageSize;
    expect(await more.innerText()).toBe(`Show ${left} more`);
    await more.click();
    await expect.poll(() => cards().count()).toBe(fixtureCount + synth.packages.length);
    expect(await more.isHidden()).toBe(true);
  });

  it("searches, and keeps the query in the URL", async () => {
    await view.page.goto(browser.site.url("/all/"));
    const target = synth.packages[5];
    await view.page.locator("#f-q").fill(target?.title ?? "");
    await expect.poll(() => cardAttribute("name")).toEqual([target?.name]);
    expect(query().get("q")).toBe(target?.title);
    await view.page.locator("#f-q").fill("miniserve");
    await expect.poll(() => cardAttribute("name")).toEqual(["ocx.sh/miniserve/miniserve"]);
    await view.page.reload();
    expect(await view.page.locator("#f-q").inputValue()).toBe("miniserve");
    await expect.poll(() => cardAttribute("name")).toEqual(["ocx.sh/miniserve/miniserve"]);
  });

  it("filters by OS, status and keyword", async () => {
    await view.page.goto(browser.site.url("/all/"));
    const total = fixtureCount + synth.packages.length;
    await view.page.locator("#f-os").selectOption("windows");
    await expect
      .poll(async () => (await cardAttribute("os")).every((os) => os.split(" ").includes("windows")))
      .toBe(true);
    const counted = /^(\d+) of (\d+) packages$/.exec(await view.page.locator("[data-count]").innerText());
    const windows = Number(counted?.[1]);
    expect(Number(counted?.[2])).toBe(total);
    expect(windows).toBeGreaterThan(0);
    expect(windows).toBeLessThan(total);
    expect(await cards().count()).toBe(Math.min(windows, catalogPageSize));
    expect(query().get("os")).toBe("windows");

    await view.page.locator("#f-os").selectOption("");
    await view.page.locator("#f-status").selectOption("deprecated");
    const deprecated = synth.packages.filter((p) => p.status === "deprecated").map((p) => p.name);
    expect(deprecated.length).toBeGreaterThan(0);
    await expect
      .poll(async () => (await cardAttribute("name")).filter((n) => n.startsWith(synth.label)).sort())
      .toEqual(deprecated.sort());
    expect(new Set(await cardAttribute("status"))).toEqual(new Set(["deprecated"]));
    expect(query().get("status")).toBe("deprecated");

    await view.page.locator("#f-status").selectOption("");
    const keyword = view.page.locator("[data-keywords] a[data-kw]").first();
    const kw = (await keyword.getAttribute("data-kw")) ?? "";
    await keyword.click();
    await expect.poll(() => query().get("kw")).toBe(kw);
    await expect
      .poll(async () => {
        const kws = await cardAttribute("kw");
        return kws.length > 0 && kws.every((k) => k.split(" ").includes(kw));
      })
      .toBe(true);
  });

  /** What the page shows: the sort field, the checked view and whether the list is laid out as a table. */
  const shown = async () => ({
    sort: await view.page.locator("#f-sort").inputValue(),
    view: await view.page.locator('input[name="view"]:checked').getAttribute("value"),
    table: await view.page.locator("[data-list]").evaluate((list) => list.classList.contains("table")),
  });
  const grid = { view: "", table: false };
  const table = { view: "table", table: true };

  /** Sorts by update time, then switches to the table view: two history entries. */
  async function sortThenTable(): Promise<void> {
    await view.page.goto(browser.site.url(`/index/${synth.label}/`));
    await view.page.locator("#f-sort").selectOption("updated");
    await expect.poll(() => query().get("sort")).toBe("updated");
    await expect
      .poll(async () => {
        const updated = await cardAttribute("updated");
        return updated.join() === [...updated].sort().reverse().join();
      })
      .toBe(true);
    await view.page.locator('input[name="view"][value="table"]').check();
    await expect.poll(() => query().get("view")).toBe("table");
    expect(await shown()).toEqual({ sort: "updated", ...table });
  }

  it("sorts and switches to the table view with the state in the URL; reload keeps it", async () => {
    await sortThenTable();
    const tableUrl = view.page.url();
    await view.page.reload();
    expect(view.page.url()).toBe(tableUrl);
    await expect.poll(shown).toEqual({ sort: "updated", ...table });
  });

  it("goes back through sort and view changes", async () => {
    await sortThenTable();
    await view.page.goBack();
    await expect.poll(() => query().get("view")).toBe(null);
    await expect.poll(shown).toEqual({ sort: "updated", ...grid });
    await view.page.goBack();
    await expect.poll(() => query().get("sort")).toBe(null);
    await expect.poll(shown).toEqual({ sort: "", ...grid });
  });

  it("goes back across a reload to the state its URL holds", async () => {
    await sortThenTable();
    await view.page.reload();
    await view.page.goBack();
    await expect.poll(() => query().get("view")).toBe(null);
    await expect.poll(shown).toEqual({ sort: "updated", ...grid });
  });

  it("opens the command palette with Ctrl+K, finds a package of any index and navigates with Enter", async () => {
    // from the root index's view: one package of another index, one of an index kept out of `all`
    for (const [index, target] of [
      [synth, synth.packages[11]],
      [hidden, hidden.packages[2]],
    ] as const) {
      await view.page.goto(browser.site.url("/"));
      await view.page.keyboard.press("Control+k");
      const dialog = view.page.getByRole("dialog");
      await dialog.waitFor({ state: "visible" });
      await view.page.keyboard.type(target?.name ?? "");
      await dialog
        .getByText(target?.name ?? "", { exact: false })
        .first()
        .waitFor({ state: "visible" });
      await view.page.keyboard.press("Enter");
      await view.page.waitForURL(`**/${index.label}/${target?.path}/`);
      expect(await view.page.locator("h1").innerText()).toBe(target?.title);
    }
  });

  it("closes the palette with Escape and gives focus back", async () => {
    await view.page.goto(browser.site.url("/all/"));
    await view.page.locator("#f-q").focus();
    await view.page.keyboard.press("Control+k");
    const dialog = view.page.getByRole("dialog");
    await dialog.waitFor({ state: "visible" });
    expect(await view.page.evaluate(() => document.activeElement?.id)).not.toBe("f-q");
    await view.page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect(await view.page.evaluate(() => document.activeElement?.id)).toBe("f-q");
  });
});
