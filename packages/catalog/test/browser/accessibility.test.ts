import { axeViolations } from "@pkg/testkit";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useSiteInChromium } from "../support/chromium-site.js";
import { buildFixtureSiteWithDocs } from "../support/fixture-site.js";
import { watchContext } from "../support/page-watch.js";

/** Whether the page body's computed background is dark (relative luminance under one half). */
function backgroundIsDark(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const [r = 0, g = 0, b = 0] = (
      getComputedStyle(document.body).backgroundColor.match(/\d+(\.\d+)?/g) ?? []
    ).map(Number);
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255 < 0.5;
  });
}

/** The catalog view, a package page, a docs page and a miss (the site's 404 page). */
const pages = ["/", "/oven-sh/bun/", "/docs/", "/no/such/page/"];
/** Chromium's own console report of the 404 status of the miss. */
const expected404 = /status of 404/;

describe("accessibility (axe-core) in Chromium", () => {
  const browser = useSiteInChromium(buildFixtureSiteWithDocs);

  for (const colorScheme of ["light", "dark"] as const) {
    it(`finds no violation on any kind of page in the ${colorScheme} color scheme`, async () => {
      // axe is injected as a script, which the strict CSP header would refuse
      const context = await browser.chromium.browser.newContext({ bypassCSP: true, colorScheme });
      const watch = await watchContext(context);
      try {
        const page = await context.newPage();
        const found: Record<string, unknown> = {};
        for (const path of pages) {
          const response = await page.goto(browser.site.url(path));
          expect(response?.status(), path).toBe(path.startsWith("/no/") ? 404 : 200);
          await page.waitForLoadState("networkidle");
          expect(await backgroundIsDark(page), path).toBe(colorScheme === "dark");
          const violations = await axeViolations(page);
          if (violations.length > 0) found[path] = violations;
        }
        expect(found).toEqual({});
      } finally {
        await context.close();
      }
      expect(watch.take(expected404)).toEqual([]);
    });
  }
});
