import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useSiteInChromium } from "../support/chromium-site.js";
import { buildFixtureSiteWithDocs } from "../support/fixture-site.js";
import { watchContext } from "../support/page-watch.js";

/** Where the screenshots go: a test artefact for people to look at, ignored by git. */
const shotsDir = fileURLToPath(new URL("../../test-artifacts/screenshots/", import.meta.url));

const viewports = {
  desktop: { width: 1280, height: 900 },
  phone: { width: 390, height: 844 },
} as const;
const themes = ["light", "dark"] as const;
/** The catalog view and a package page (bun: logo, README, aliased tags, libc rows). */
const pages = { catalog: "/", package: "/oven-sh/bun/" } as const;

/** Relative luminance (0 dark to 1 light) of an element's computed background colour. */
function backgroundLuminance(page: Page, selector: string): Promise<number> {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const [r = 0, g = 0, b = 0] = (
        getComputedStyle(element).backgroundColor.match(/\d+(\.\d+)?/g) ?? []
      ).map(Number);
      return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    });
}

describe("screenshots of the catalog view and a package page", () => {
  const browser = useSiteInChromium(buildFixtureSiteWithDocs);

  for (const theme of themes) {
    for (const [size, viewport] of Object.entries(viewports)) {
      it(`${size} ${viewport.width}x${viewport.height}, ${theme} theme`, async () => {
        await mkdir(shotsDir, { recursive: true });
        const phone = size === "phone";
        const context = await browser.chromium.browser.newContext({
          viewport,
          colorScheme: theme,
          ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
        });
        const watch = await watchContext(context);
        try {
          const page = await context.newPage();
          for (const [name, path] of Object.entries(pages)) {
            await page.goto(browser.site.url(path));
            await page.waitForLoadState("networkidle");
            await page.screenshot({
              path: `${shotsDir}${name}-${viewport.width}x${viewport.height}-${theme}.png`,
            });
            // the theme applied: the page and its surfaces follow the color scheme
            const body = await backgroundLuminance(page, "body");
            if (theme === "dark") expect(body, path).toBeLessThan(0.2);
            else expect(body, path).toBeGreaterThan(0.8);
            const surface = name === "catalog" ? ".card" : "pre.command";
            expect((await backgroundLuminance(page, surface)) < 0.5, `${path} ${surface}`).toBe(
              theme === "dark",
            );
            if (name === "catalog" && phone) {
              // on a phone the packages come first: the first card starts inside the first screen
              const first = await page.locator("[data-list] .card").first().boundingBox();
              expect(first?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(viewport.height);
            }
          }
        } finally {
          await context.close();
        }
        expect(watch.take()).toEqual([]);
      });
    }
  }
});
