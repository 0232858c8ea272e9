import { launchChromium, type RunningChromium } from "@pkg/testkit";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import type { BuiltSite } from "./fixture-site.js";
import { type PageProblems, watchContext } from "./page-watch.js";

/** A built site and a Chromium, for the tests of one describe block. */
export interface SiteInChromium {
  readonly site: BuiltSite;
  readonly chromium: RunningChromium;
}

/** A fresh watched context and its page, for one test. */
export interface WatchedPage {
  readonly context: BrowserContext;
  readonly watch: PageProblems;
  readonly page: Page;
}

/** An object whose fields are read from `current`, filled by hooks, so a test reads them late. */
function lateFields<T extends object>(current: Partial<T>, keys: ReadonlyArray<keyof T & string>): T {
  const view = {} as T;
  for (const key of keys) {
    Object.defineProperty(view, key, {
      get() {
        const value = current[key];
        if (value === undefined) throw new Error(`${key} is not set up yet`);
        return value;
      },
    });
  }
  return view;
}

/**
 * Registers the `beforeAll`/`afterAll` of a browser describe block: builds the site with `build`
 * and launches Chromium; both closed after the block.
 */
export function useSiteInChromium(build: () => Promise<BuiltSite>): SiteInChromium {
  const current: { site?: BuiltSite; chromium?: RunningChromium } = {};
  beforeAll(async () => {
    current.site = await build();
    current.chromium = await launchChromium();
  });
  afterAll(async () => {
    await current.chromium?.close();
    await current.site?.close();
  });
  return lateFields<SiteInChromium>(current, ["site", "chromium"]);
}

/**
 * Registers a `beforeEach` that opens a watched context and a page in `browser`, and an
 * `afterEach` that closes it and expects no page problem.
 */
export function useWatchedPage(browser: SiteInChromium): WatchedPage {
  const current: { context?: BrowserContext; watch?: PageProblems; page?: Page } = {};
  beforeEach(async () => {
    const context = await browser.chromium.browser.newContext();
    current.context = context;
    current.watch = await watchContext(context);
    current.page = await context.newPage();
  });
  afterEach(async () => {
    await current.context?.close();
    expect(current.watch?.take()).toEqual([]);
  });
  return lateFields<WatchedPage>(current, ["context", "watch", "page"]);
}
