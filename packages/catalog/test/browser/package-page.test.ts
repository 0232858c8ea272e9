import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ImageIndex, PackageRoot } from "@pkg/index";
import { beforeEach, describe, expect, it } from "vitest";
import { pkgHasExec } from "../../src/site/model/install-commands.js";
import { osLabel } from "../../src/site/model/os-label.js";
import { ocxIndexFixture } from "../support/catalog-project.js";
import { useSiteInChromium, useWatchedPage } from "../support/chromium-site.js";
import { buildAndServe } from "../support/fixture-site.js";

const readJson = async <T>(path: string) =>
  JSON.parse(await readFile(join(ocxIndexFixture, path), "utf8")) as T;
const objectPath = (pkg: string, digest: string, ext: string) =>
  `p/${pkg}/o/sha256/${digest.slice(7)}.${ext}`;

/** bun: README, SVG logo, aliased tags and a platform matrix with libc rows. */
const pkg = "oven-sh/bun";
const root = await readJson<PackageRoot>(`p/${pkg}.json`);
const latestTag = root.tags.latest;
const latestIndex = await readJson<ImageIndex>(objectPath(pkg, latestTag?.content ?? "", "json"));

describe("a package page in Chromium", () => {
  const browser = useSiteInChromium(() => buildAndServe({ index: ocxIndexFixture }));
  const view = useWatchedPage(browser);
  beforeEach(async () => {
    await view.page.goto(browser.site.url(`/${pkg}/`));
  });

  it("is reached from its card in the catalog view", async () => {
    await view.page.goto(browser.site.url("/"));
    await view.page.locator(`.card[data-name="${root.name}"] a`).click();
    await view.page.waitForURL(`**/${pkg}/`);
    expect(await view.page.locator("h1").innerText()).toBe(root.desc?.title);
  });

  it("shows the README rendered from Markdown and the logo", async () => {
    const readme = view.page.locator(".readme");
    expect(await readme.locator("h1, h2, h3, h4, h5, h6").first().innerText()).toBe("Bun");
    expect(await readme.innerText()).toContain("Bun is an incredibly fast JavaScript runtime");
    expect(await readme.locator("strong").first().innerText()).toBe("bun");
    expect(await readme.locator('a[href="https://bun.sh/docs"]').innerText()).toBe("Bun Documentation");
    const logo = view.page.locator("img.package-logo");
    expect(await logo.getAttribute("src")).toContain((root.desc?.logo ?? "").slice(7));
    await expect
      .poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
  });

  it("shows the tags with their aliases, the install command and the platform matrix with libc", async () => {
    const aliasesOfLatest = Object.entries(root.tags)
      .filter(([, entry]) => entry.content === latestTag?.content)
      .map(([tag]) => tag);
    const row = view.page.locator("table.tags tbody tr", {
      has: view.page.locator("code", { hasText: /^latest$/ }),
    });
    expect(await row.count()).toBe(1);
    const rowText = await row.innerText();
    for (const tag of aliasesOfLatest) expect(rowText).toContain(tag);

    const version = await view.page.locator(".facts dd").first().innerText();
    expect(aliasesOfLatest).toContain(version);
    // commands the shipped pkg CLI takes (test/site/install-commands.test.ts parses them with it)
    const reference = `${root.repository.replace("oci://", "")}:${version}`;
    const pull = `pkg package pull ${reference} -o bun`;
    expect(await view.page.locator("pre.command code").allInnerTexts()).toEqual(
      pkgHasExec ? [`pkg exec ${reference}`, pull] : [pull],
    );

    // one row per OS and libc, named by its OS badge; a cell per architecture, marked and worded
    const platforms = latestIndex.manifests
      .map((m) => m.platform)
      .filter((p) => p !== undefined && p.os !== "unknown")
      .map((p) => ({
        os: p?.os ?? "",
        arch: p?.architecture ?? "",
        libc: p?.["os.features"]?.find((f) => f.startsWith("libc."))?.slice(5),
      }));
    const rowName = (p: { os: string; libc?: string | undefined }) =>
      p.libc ? `${osLabel(p.os)} ${p.libc}` : osLabel(p.os);
    const expectedRows = new Set(platforms.map(rowName));
    expect(platforms.some((p) => p.libc !== undefined)).toBe(true);
    const rows = view.page.locator("table.matrix tbody tr");
    const arches = await view.page.locator("table.matrix thead th").allInnerTexts();
    const seen = new Set<string>();
    for (const row of await rows.all()) {
      const name = (await row.locator("th").innerText()).replace(/\s+/g, " ");
      seen.add(name);
      const cells = await row
        .locator("td")
        .evaluateAll((tds) =>
          tds.map((td) => [
            td.querySelector(".mark")?.textContent,
            td.querySelector(".visually-hidden")?.textContent,
          ]),
        );
      cells.forEach(([mark, word], i) => {
        const has = platforms.some((p) => rowName(p) === name && p.arch === arches[i + 1]);
        expect([mark, word], `${name} ${arches[i + 1]}`).toEqual(has ? ["✓", "yes"] : ["–", "no"]);
      });
    }
    expect(seen).toEqual(expectedRows);
    expect(await view.page.locator("table.matrix td.no").count()).toBeGreaterThan(0);
  });

  it("shows the license, source and revision from the image index annotations, and the owners", async () => {
    const facts = await view.page.locator(".facts").innerText();
    const annotations = latestIndex.annotations ?? {};
    for (const key of ["licenses", "revision"]) {
      const value = annotations[`org.opencontainers.image.${key}`];
      if (value) expect(facts).toContain(value);
    }
    const source = annotations["org.opencontainers.image.source"];
    if (source) expect(await view.page.locator(`.facts a[href="${source}"]`).count()).toBe(1);
    const owner = root.owners[0]?.github ?? "";
    expect(await view.page.locator(".owners a").first().getAttribute("href")).toBe(
      `https://github.com/${encodeURIComponent(owner)}`,
    );
  });
});
