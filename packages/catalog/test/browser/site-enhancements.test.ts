import type { BrowserContextOptions } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ocxIndexFixture } from "../support/catalog-project.js";
import { useSiteInChromium } from "../support/chromium-site.js";
import { buildAndServe } from "../support/fixture-site.js";
import { watchContext } from "../support/page-watch.js";

/** bun's page: install commands in `pre.command`. */
const packagePath = "/oven-sh/bun/";
const phone: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
};
const desktop: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };

/** Hides the async clipboard API, as a page over plain http or from disk has none; the real one
 *  stays reachable to the test as `testClipboard`. */
function withoutAsyncClipboard(): void {
  const real = navigator.clipboard;
  Object.defineProperty(window, "testClipboard", { value: real });
  Object.defineProperty(Navigator.prototype, "clipboard", { get: () => undefined, configurable: true });
}

describe("the site script's enhancements in Chromium", () => {
  const browser = useSiteInChromium(() => buildAndServe({ index: ocxIndexFixture }));

  /** Runs `body` with a page of a fresh context; afterwards the page must have had no problem. */
  async function withPage(
    options: BrowserContextOptions & { initScript?: () => void },
    body: (page: import("playwright-core").Page) => Promise<void>,
  ): Promise<void> {
    const { initScript, ...contextOptions } = options;
    const context = await browser.chromium.browser.newContext(contextOptions);
    const watch = await watchContext(context);
    try {
      if (initScript) await context.addInitScript(initScript);
      await body(await context.newPage());
    } finally {
      await context.close();
    }
    expect(watch.take()).toEqual([]);
  }

  it("gives every install command a copy button that copies it and says so in a live region", async () => {
    await withPage(desktop, async (page) => {
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
      await page.goto(browser.site.url(packagePath));
      const commands = page.locator("pre.command");
      const count = await commands.count();
      expect(count).toBeGreaterThan(0);
      const buttons = page.getByRole("button", { name: "Copy", exact: true });
      expect(await buttons.count()).toBe(count);
      for (let i = 0; i < count; i++) {
        const text = (await commands.nth(i).innerText()).trim();
        const button = buttons.nth(i);
        // the button's description names the command it copies
        const describedBy = (await button.getAttribute("aria-describedby")) ?? "";
        expect((await page.locator(`[id="${describedBy}"]`).innerText()).trim()).toBe(text);
        await button.click();
        await expect.poll(() => page.getByRole("status").filter({ hasText: "Copied" }).count()).toBe(1);
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text);
        expect(text).toMatch(/^pkg /);
      }
      expect(await page.locator("button.copy", { hasText: "Copied" }).count()).toBeGreaterThan(0);
    });
  });

  it("copies without the async clipboard too, through a selection and the copy command", async () => {
    await withPage({ ...desktop, initScript: withoutAsyncClipboard }, async (page) => {
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
      await page.goto(browser.site.url(packagePath));
      expect(await page.evaluate(() => "clipboard" in navigator && navigator.clipboard === undefined)).toBe(
        true,
      );
      const text = (await page.locator("pre.command").first().innerText()).trim();
      await page.getByRole("button", { name: "Copy", exact: true }).first().click();
      await expect.poll(() => page.getByRole("status").innerText()).toBe("Copied");
      const copied = await page.evaluate(() =>
        (window as unknown as { testClipboard: Clipboard }).testClipboard.readText(),
      );
      expect(copied).toBe(text);
      // the scratch text area is gone again
      expect(await page.locator("textarea").count()).toBe(0);
    });
  });

  it("shows no copy button without JavaScript: the commands are plain text then", async () => {
    await withPage({ ...desktop, javaScriptEnabled: false }, async (page) => {
      await page.goto(browser.site.url(packagePath));
      expect(await page.locator("pre.command").count()).toBeGreaterThan(0);
      // no button at all: the theme toggle stays hidden too
      expect(await page.getByRole("button").count()).toBe(0);
      expect(await page.locator("button.copy").count()).toBe(0);
    });
  });

  it("hints Ctrl K where there is a keyboard, never on a touch screen", async () => {
    await withPage(desktop, async (page) => {
      await page.goto(browser.site.url("/"));
      const hint = page.locator("[data-palette-open] kbd");
      expect(await hint.innerText()).toBe("Ctrl K");
      // headless Chromium reports no hover and no pointer: the hint follows the media query
      const keyboardless = await page.evaluate(() => matchMedia("(hover: none), (pointer: coarse)").matches);
      expect(await hint.isVisible()).toBe(!keyboardless);
    });
    await withPage(phone, async (page) => {
      await page.goto(browser.site.url("/"));
      expect(await page.evaluate(() => matchMedia("(pointer: coarse)").matches)).toBe(true);
      expect(await page.locator("[data-palette-open]").isVisible()).toBe(true);
      expect(await page.locator("[data-palette-open] kbd").isVisible()).toBe(false);
    });
  });

  it("hints ⌘K on an Apple platform", async () => {
    await withPage(desktop, async (page) => {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Emulation.setUserAgentOverride", {
        userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko)",
        platform: "MacIntel",
        userAgentMetadata: {
          platform: "macOS",
          platformVersion: "14.0.0",
          architecture: "arm",
          model: "",
          mobile: false,
        },
      });
      await page.goto(browser.site.url("/"));
      expect(await page.locator("[data-palette-open] kbd").textContent()).toBe("⌘K");
      // and ⌘K opens the palette there
      await page.keyboard.press("Meta+k");
      await expect.poll(() => page.locator("dialog.palette[open]").count()).toBe(1);
    });
  });

  it("folds the keyword rail away on a phone and keeps it open as a side column on a wide screen", async () => {
    await withPage(desktop, async (page) => {
      await page.goto(browser.site.url("/"));
      const fold = page.locator("[data-keywords] details");
      expect(await fold.evaluate((d: HTMLDetailsElement) => d.open)).toBe(true);
      expect(await page.locator("[data-keywords] a[data-kw]").first().isVisible()).toBe(true);
    });
    await withPage(phone, async (page) => {
      await page.goto(browser.site.url("/"));
      const fold = page.locator("[data-keywords] details");
      expect(await fold.evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
      expect(await page.locator("[data-keywords] a[data-kw]").first().isVisible()).toBe(false);
      const first = await page.locator("[data-list] .card").first().boundingBox();
      expect(first?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(844);
      // the disclosure opens, and a keyword filters the list
      await page.getByText("Keywords", { exact: true }).click();
      const keyword = page.locator("[data-keywords] a[data-kw]").first();
      expect(await keyword.isVisible()).toBe(true);
      const kw = (await keyword.getAttribute("data-kw")) ?? "";
      await keyword.click();
      await expect.poll(() => new URL(page.url()).searchParams.get("kw")).toBe(kw);
    });
  });
});
