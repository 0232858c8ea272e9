import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { launchChromium, serveDirectory } from "@pkg/testkit";
import { gzipSize, scriptsBeforeInteraction } from "../../packages/catalog/test/support/page-weight.js";

/** What a visitor of a large catalog pays: the first view's weight and the search's response. */
export interface CatalogViewFigures {
  htmlGzipBytes: number;
  jsBytes: number;
  /** Loading the search index and its code, then showing the first keystroke's results. */
  firstSearchMs: number;
  /** Each later keystroke, from input to the list redrawn (the page's own `pkg-search` measure). */
  keystrokeMs: number[];
}

/** The query typed one character at a time: every synthetic description says "things", so each
 *  keystroke filters and redraws the worst case, every package matching. */
const typed = "things";

/**
 * Serves a built site, opens its catalog view in Chromium and measures the first page's gzipped
 * HTML, the JavaScript loaded before any interaction, and the search, keystroke by keystroke.
 */
export async function measureCatalogView(site: string): Promise<CatalogViewFigures> {
  const html = await readFile(join(site, "index.html"));
  const server = await serveDirectory(site);
  const chromium = await launchChromium();
  try {
    const context = await chromium.browser.newContext();
    const page = await context.newPage();
    const js = await scriptsBeforeInteraction(page, `${server.url}/`);
    const box = page.locator("#f-q");
    const measures = () =>
      page.evaluate(() => performance.getEntriesByName("pkg-search").map((entry) => entry.duration));
    const started = Date.now();
    await box.press(typed[0] ?? "t");
    await page.waitForFunction(() => performance.getEntriesByName("pkg-search").length > 0);
    const firstSearchMs = Date.now() - started;
    for (const key of typed.slice(1)) {
      const before = (await measures()).length;
      await box.press(key);
      await page.waitForFunction((n) => performance.getEntriesByName("pkg-search").length > n, before);
    }
    const keystrokeMs = (await measures()).slice(1);
    await context.close();
    return { htmlGzipBytes: gzipSize(html), jsBytes: js.bytes, firstSearchMs, keystrokeMs };
  } finally {
    await chromium.close();
    await server.stop();
  }
}
