import { describe, expect, it } from "vitest";
import { useSiteInChromium } from "../support/chromium-site.js";
import { buildFixtureSiteWithDocs, strictCsp } from "../support/fixture-site.js";
import { watchContext } from "../support/page-watch.js";

describe("the site under a strict Content-Security-Policy, and with JavaScript off", () => {
  const browser = useSiteInChromium(buildFixtureSiteWithDocs);

  it("runs its scripts under the strict policy header with no violation reported", async () => {
    const context = await browser.chromium.browser.newContext();
    const watch = await watchContext(context);
    try {
      const page = await context.newPage();
      for (const path of ["/", "/all/", "/miniserve/miniserve/", "/docs/"]) {
        const response = await page.goto(browser.site.url(path));
        expect(response?.headers()["content-security-policy"]).toBe(strictCsp);
        await page.waitForLoadState("networkidle");
      }
      await page.goto(browser.site.url("/all/"));
      // the catalog script enhances the controls: proof that it ran under the policy
      await page.locator("[data-controls]").waitFor({ state: "visible" });
      await page.locator("#f-q").fill("miniserve");
      await expect.poll(() => page.locator("[data-list] .card:visible").count()).toBe(1);
    } finally {
      await context.close();
    }
    expect(watch.take()).toEqual([]);
  });

  it("has no inline script or style a strict policy would block", async () => {
    const context = await browser.chromium.browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      for (const path of ["/", "/miniserve/miniserve/", "/docs/"]) {
        await page.goto(browser.site.url(path));
        const inline = await page.evaluate(() => ({
          scripts: Array.from(document.querySelectorAll("script:not([src])")).map((s) => s.outerHTML),
          styles: Array.from(document.querySelectorAll("style, [style]")).map((s) =>
            s.outerHTML.slice(0, 200),
          ),
          handlers: Array.from(document.querySelectorAll("*")).flatMap((el) =>
            el.getAttributeNames().filter((name: string) => name.startsWith("on")),
          ),
        }));
        expect(inline, path).toEqual({ scripts: [], styles: [], handlers: [] });
      }
    } finally {
      await context.close();
    }
  });

  it("reads without JavaScript: package names on the catalog view, the README on a package page", async () => {
    const context = await browser.chromium.browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(browser.site.url("/"));
      const names = await page.locator(".card-name").allInnerTexts();
      expect(names).toContain("ocx.sh/miniserve/miniserve");
      expect(names).toContain("ocx.sh/oven-sh/bun");
      expect(await page.locator(".card-title a", { hasText: "miniserve" }).first().isVisible()).toBe(true);

      await page.goto(browser.site.url("/oven-sh/bun/"));
      expect(await page.locator("h1").innerText()).toBe("Bun");
      expect(await page.locator(".readme").innerText()).toContain(
        "Bun is an incredibly fast JavaScript runtime",
      );
      expect(await page.locator("table.tags").isVisible()).toBe(true);

      await page.goto(browser.site.url("/docs/"));
      expect(await page.locator("main").innerText()).toContain(
        "Every package here installs with one command",
      );
    } finally {
      await context.close();
    }
  });
});
