import { stat } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  axeViolations,
  launchChromium,
  type RunningChromium,
  serveDirectory,
  type TempDir,
  type TestServer,
  tempDir,
} from "@pkg/testkit";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ocxIndexFixture } from "../support/catalog-project.js";
import { buildSite, docsIndex, strictCsp } from "../support/fixture-site.js";
import { watchContext } from "../support/page-watch.js";

/** The catalog view, a package page with a logo and a README, and a docs page. */
const pages = ["/", "/astral-sh/uv/", "/docs/"];

/** Where one built directory is published, and how a URL of it is checked to exist. */
interface Deployment {
  name: string;
  /** The site root, with its trailing slash. */
  root: URL;
  /** The address of a page route. */
  pageUrl(route: string): string;
  /** Why `url` (inside the site) names no file, or undefined when it names one. */
  missing(url: URL): Promise<string | undefined>;
}

function served(name: string, root: URL): Deployment {
  return {
    name,
    root,
    pageUrl: (route) => new URL(route.slice(1), root).href,
    async missing(url) {
      const response = await fetch(url, { redirect: "manual" });
      await response.arrayBuffer();
      return response.status === 200 ? undefined : `status ${response.status}`;
    },
  };
}

function fromDisk(out: string): Deployment {
  const root = pathToFileURL(`${out}/`);
  return {
    name: "opened from disk",
    root,
    pageUrl: (route) => new URL(`${route.slice(1)}index.html`, root).href,
    async missing(url) {
      const file = new URL(url);
      file.search = "";
      file.hash = "";
      const info = await stat(fileURLToPath(file)).catch(() => undefined);
      return info?.isFile() ? undefined : info ? "a directory" : "no such file";
    },
  };
}

/** Every link and asset of the page but its in-page links (`#main`), as the browser resolved them
 *  (after the page's scripts ran). */
function targets(page: Page): Promise<string[]> {
  return page.evaluate(() => [
    ...Array.from(document.querySelectorAll<HTMLAnchorElement>("a[href]:not([href^='#'])"), (a) => a.href),
    ...Array.from(document.querySelectorAll<HTMLLinkElement>("link[href]"), (l) => l.href),
    ...Array.from(document.querySelectorAll<HTMLScriptElement>("script[src]"), (s) => s.src),
    ...Array.from(document.querySelectorAll<HTMLImageElement>("img[src]"), (i) => i.src),
  ]);
}

/** The page's links and assets on the site's own origin that do not resolve to a file of the site
 *  (`checked` remembers what was found already, across pages). */
async function brokenTargets(page: Page, site: Deployment, checked: Map<string, string | undefined>) {
  const broken: string[] = [];
  for (const target of await targets(page)) {
    const url = new URL(target);
    url.hash = "";
    const sameOrigin =
      site.root.protocol === "file:" ? url.protocol === "file:" : url.origin === site.root.origin;
    if (!sameOrigin) continue;
    if (!url.href.startsWith(site.root.href)) {
      broken.push(`${target}: outside the site`);
      continue;
    }
    if (!checked.has(url.href)) checked.set(url.href, await site.missing(url));
    const why = checked.get(url.href);
    if (why !== undefined) broken.push(`${target}: ${why}`);
  }
  return broken;
}

/** A property only the site's stylesheet sets: proof that it applied. */
function headerDisplay(page: Page): Promise<string> {
  return page.locator(".site-header").evaluate((header) => getComputedStyle(header).display);
}

const favicon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="8"/></svg>\n';

describe("one built site served at /, served under /catalog/ and opened from disk", () => {
  let scratch: TempDir;
  let chromium: RunningChromium;
  let atRoot: TestServer;
  let underBase: TestServer;
  const deployments: Deployment[] = [];

  beforeAll(async () => {
    scratch = await tempDir("deploy-paths-");
    const { out } = await buildSite(scratch.path, {
      index: ocxIndexFixture,
      docs: { "index.md": docsIndex },
      publicFiles: { "img/brand.svg": favicon },
      config: {
        brand: { title: "Test Catalog", logo: "./public/img/brand.svg" },
        nav: [{ text: "Every package", link: "/all/" }],
        footer: { links: [{ text: "Docs", link: "/docs/" }] },
      },
    });
    const headers = { "content-security-policy": strictCsp };
    atRoot = await serveDirectory(out, { headers });
    underBase = await serveDirectory(out, { headers, base: "/catalog/" });
    deployments.push(
      served("served at /", new URL(`${atRoot.url}/`)),
      served("served under /catalog/", new URL(`${underBase.url}/catalog/`)),
      fromDisk(out),
    );
    chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await atRoot?.stop();
    await underBase?.stop();
    await scratch?.remove();
  });

  for (const index of [0, 1, 2]) {
    const label = ["served at /", "served under /catalog/", "opened from disk"][index];
    it(`${label}: styled, every link and asset resolves, the palette finds and opens a package, no console error`, async () => {
      const site = deployments[index];
      if (!site) throw new Error("not set up");
      const context = await chromium.browser.newContext();
      const watch = await watchContext(context);
      const checked = new Map<string, string | undefined>();
      const found: Record<string, string[]> = {};
      try {
        const page = await context.newPage();
        for (const route of pages) {
          await page.goto(site.pageUrl(route));
          await page.waitForLoadState("networkidle");
          expect(await headerDisplay(page), route).toBe("flex");
          // the site script has run: it shows the theme toggle
          await page.locator("[data-theme-toggle]").waitFor({ state: "visible" });
          const broken = await brokenTargets(page, site, checked);
          if (broken.length > 0) found[route] = broken;
        }
        expect(found).toEqual({});
        expect(checked.size).toBeGreaterThan(20);

        await page.goto(site.pageUrl("/all/"));
        await page.waitForLoadState("networkidle");
        await page.keyboard.press("Control+k");
        const dialog = page.getByRole("dialog");
        await dialog.waitFor({ state: "visible" });
        await page.keyboard.type("astral-sh/uv");
        const result = dialog.getByRole("link").filter({ hasText: "ocx.sh/astral-sh/uv" }).first();
        await result.waitFor({ state: "visible" });
        const href = await result.evaluate((a) => (a as HTMLAnchorElement).href);
        expect(await site.missing(new URL(href))).toBeUndefined();
        await page.keyboard.press("Enter");
        await page.waitForURL(site.pageUrl("/astral-sh/uv/"));
        expect(await page.locator("h1").innerText()).toBe("uv");
      } finally {
        await context.close();
      }
      expect(watch.take()).toEqual([]);
    });

    it(`${label}: axe finds no violation`, async () => {
      const site = deployments[index];
      if (!site) throw new Error("not set up");
      // axe is injected as a script, which the strict policy would refuse
      const context = await chromium.browser.newContext({ bypassCSP: true });
      const found: Record<string, unknown> = {};
      try {
        const page = await context.newPage();
        for (const route of pages) {
          await page.goto(site.pageUrl(route));
          await page.waitForLoadState("networkidle");
          const violations = await axeViolations(page);
          if (violations.length > 0) found[route] = violations;
        }
      } finally {
        await context.close();
      }
      expect(found).toEqual({});
    });
  }
});

describe("the 404 page of a site whose siteUrl carries a path", () => {
  let scratch: TempDir;
  let chromium: RunningChromium;
  let server: TestServer;
  let site: Deployment;

  beforeAll(async () => {
    scratch = await tempDir("deploy-404-");
    const { out } = await buildSite(scratch.path, {
      index: ocxIndexFixture,
      config: { siteUrl: "https://acme.github.io/catalog" },
    });
    server = await serveDirectory(out, {
      headers: { "content-security-policy": strictCsp },
      base: "/catalog/",
    });
    site = served("served under /catalog/", new URL(`${server.url}/catalog/`));
    chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await server?.stop();
    await scratch?.remove();
  });

  it("is styled and names every link and asset under /catalog/, at any depth", async () => {
    const context = await chromium.browser.newContext();
    const watch = await watchContext(context);
    const checked = new Map<string, string | undefined>();
    const misses = ["no/such/page/", "a/b/c/d/e", "missing.html"];
    try {
      const page = await context.newPage();
      for (const miss of misses) {
        const response = await page.goto(new URL(miss, site.root).href);
        expect(response?.status(), miss).toBe(404);
        await page.waitForLoadState("networkidle");
        expect(await page.locator("h1").innerText()).toBe("Page not found");
        expect(await headerDisplay(page), miss).toBe("flex");
        expect(await brokenTargets(page, site, checked), miss).toEqual([]);
      }
      await page.getByRole("link", { name: "every package" }).click();
      await page.waitForURL(new URL("all/", site.root).href);
    } finally {
      await context.close();
    }
    // Chromium reports each miss's own 404 status, and nothing else
    const problems = watch.take();
    expect(problems.filter((p) => !/status of 404/.test(p))).toEqual([]);
    expect(problems).toHaveLength(misses.length);
  });
});
