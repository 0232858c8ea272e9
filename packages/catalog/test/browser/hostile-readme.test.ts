import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { startHttpServer, type TempDir, type TestServer, tempDir } from "@pkg/testkit";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { useSiteInChromium } from "../support/chromium-site.js";
import { buildAndServe } from "../support/fixture-site.js";
import { hostileSvgLogo, sentinelPayloads } from "../support/hostile-payloads.js";
import { watchContext } from "../support/page-watch.js";
import { type SyntheticIndex, writeSyntheticIndex } from "../support/synthetic-index.js";

/** The sanitiser tests' corpus (alert payloads), when present, read in place. */
async function sharedCorpus(): Promise<string[]> {
  const dir = new URL("../site/hostile/", import.meta.url);
  const names = await readdir(dir).catch(() => [] as string[]);
  return Promise.all(names.filter((n) => n.endsWith(".md")).map((n) => readFile(new URL(n, dir), "utf8")));
}

/** Elements and attributes that must never come out of a README. */
async function activeContent(page: Page): Promise<string[]> {
  return page.locator(".readme").evaluate((readme) => {
    const found = Array.from(
      readme.querySelectorAll(
        "script, iframe, object, embed, style, link, meta, base, form, svg, math, input",
      ),
    ).map((el) => `<${el.localName}>`);
    for (const el of Array.from(readme.querySelectorAll("*"))) {
      for (const name of el.getAttributeNames()) {
        if (name.startsWith("on") || name === "style" || name === "srcdoc")
          found.push(`${el.localName}[${name}]`);
      }
      const target = el.getAttribute("href") ?? el.getAttribute("src");
      const protocol = target === null ? "" : URL.parse(target, location.href)?.protocol;
      if (target !== null && !["http:", "https:", "mailto:"].includes(protocol ?? "")) {
        found.push(`${el.localName} -> ${target}`);
      }
    }
    return found;
  });
}

describe("hostile READMEs and logos in Chromium", () => {
  let scratch: TempDir;
  let sentinel: TestServer;
  let synth: SyntheticIndex;

  const browser = useSiteInChromium(async () => {
    scratch = await tempDir("hostile-readme-");
    sentinel = await startHttpServer((_req, res) =>
      res.writeHead(200, { "content-type": "text/plain" }).end("x"),
    );
    const corpus = [...sentinelPayloads(sentinel.url), ...(await sharedCorpus())];
    synth = await writeSyntheticIndex(join(scratch.path, "index"), {
      packages: corpus.length,
      readmeOf: (i) => corpus[i],
      logoOf: (i) => (i === 0 ? { ext: "svg", bytes: hostileSvgLogo(sentinel.url) } : undefined),
    });
    // no CSP header, and bypassCSP below ignores the page's own meta policy: the sanitiser alone
    return buildAndServe({ index: synth.dir, headers: {} });
  });
  afterAll(async () => {
    await sentinel?.stop();
    await scratch?.remove();
  });

  it("renders every hostile README with nothing executed, loaded or clickable into script", async () => {
    const context = await browser.chromium.browser.newContext({ bypassCSP: true });
    const watch = await watchContext(context);
    const external: string[] = [];
    // nothing leaves the machine: every request off the site is recorded and refused
    await context.route(
      (url) => !url.href.startsWith(browser.site.server.url),
      (route) => {
        external.push(route.request().url());
        return route.abort();
      },
    );
    const page = await context.newPage();
    const pwned = () => page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned ?? null);
    const settle = () =>
      page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
    const navigations: string[] = [];
    page.on("framenavigated", (frame) => navigations.push(frame.url()));
    try {
      await page.goto(browser.site.url("/"));
      await page.waitForLoadState("networkidle");
      expect(await pwned()).toBe(null);

      for (const pkg of synth.packages) {
        const route = browser.site.url(`/${pkg.path}/`);
        await page.goto(route);
        await page.waitForLoadState("networkidle");
        expect(await page.locator("h1").innerText()).toBe(pkg.title);
        expect(await activeContent(page), pkg.path).toEqual([]);
        await page.mouse.move(5, 5);
        const hover = page.locator(".readme #hover-target, .readme div", { hasText: "hover me" });
        if ((await hover.count()) > 0) await hover.first().hover();
        await settle();
        expect(await pwned(), pkg.path).toBe(null);

        const links = page.locator(".readme a", { hasText: /^click-\d+$/ });
        for (let i = 0; i < (await links.count()); i++) {
          await page.goto(route);
          const href = await links.nth(i).getAttribute("href");
          await links.nth(i).click();
          await page.waitForLoadState();
          // a `javascript:` URL runs in a later task; a navigation away destroys this context instead
          await settle().catch(() => undefined);
          // a kept link may navigate (off the site it is refused); a script URL would run in place
          if (page.url() === route) expect(await pwned(), `${pkg.path} link ${href}`).toBe(null);
          else expect(href ?? "", page.url()).toMatch(/^(https?:|mailto:|[a-z0-9./_-]+$)/i);
        }
      }
      if (synth.packages[0]?.hasLogo) {
        await page.goto(browser.site.url(`/${synth.packages[0].path}/`));
        const logo = page.locator("img.package-logo");
        expect(await logo.count()).toBe(1);
        await page.waitForLoadState("networkidle");
        expect(await pwned()).toBe(null);
      }
    } finally {
      await context.close();
    }
    expect(navigations.filter((url) => !/^(https?:|chrome-error:)/.test(url))).toEqual([]);
    expect(sentinel.requests.map((r) => r.url)).toEqual([]);
    expect(external.filter((url) => url.startsWith(sentinel.url) || url.includes("evil.example"))).toEqual(
      [],
    );
    const problems = watch.take(/Failed to load resource/);
    expect(problems.filter((p) => /dialog|PWNED|page error/.test(p))).toEqual([]);
  });

  it("has detectors that see a payload that does run (same conditions, the sanitiser left out)", async () => {
    const context = await browser.chromium.browser.newContext({ bypassCSP: true });
    const watch = await watchContext(context);
    try {
      const page = await context.newPage();
      await page.goto(browser.site.url("/"));
      const before = sentinel.requests.length;
      await page.setContent(
        `<img src="x" onerror="window.__pwned='probe';alert('PWNED')"><iframe src="${sentinel.url}/probe"></iframe>`,
      );
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned))
        .toBe("probe");
      await expect.poll(() => sentinel.requests.length).toBeGreaterThan(before);
    } finally {
      await context.close();
    }
    expect(watch.take().some((p) => p.includes("dialog") && p.includes("PWNED"))).toBe(true);
  });
});
