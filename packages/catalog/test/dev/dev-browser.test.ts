import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { launchChromium, type RunningChromium, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type DevProcess, killLeftoverDevProcesses, startDev } from "../support/dev-process.js";
import { watchContext } from "../support/page-watch.js";
import { writeSyntheticIndex } from "../support/synthetic-index.js";

let work: TempDir;
let dev: DevProcess | undefined;
let chromium: RunningChromium | undefined;
const config = {
  sources: [{ path: "index", root: true }],
  brand: { title: "Dev catalog" },
  css: "site.css",
  publicDir: "public",
  // with an icon, Chromium does not ask for /favicon.ico (a 404 in the console)
  favicon: "/favicon.svg",
};

beforeAll(async () => {
  work = await tempDir("catalog-dev-browser-");
  await mkdir(join(work.path, "tmp"));
  await writeFile(join(work.path, "site.css"), "body { color: teal; }\n");
  await mkdir(join(work.path, "public"));
  await writeFile(
    join(work.path, "public", "favicon.svg"),
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>',
  );
  await writeFile(join(work.path, "catalog.config.json"), JSON.stringify(config));
  await writeSyntheticIndex(join(work.path, "index"), { packages: 2, readmeBytes: 300 });
  dev = await startDev([], { cwd: work.path, env: { TMPDIR: join(work.path, "tmp") } });
  chromium = await launchChromium();
});

afterAll(async () => {
  await chromium?.close();
  await dev?.stop();
  killLeftoverDevProcesses();
  await work.remove();
});

it("reloads the page after a rebuild and overlays a failed rebuild's error, within the site's CSP", async () => {
  if (chromium === undefined || dev === undefined) throw new Error("setup failed");
  const context = await chromium.browser.newContext();
  const watch = await watchContext(context);
  try {
    const page = await context.newPage();
    const misses: string[] = [];
    page.on("response", (response) => {
      if (response.status() >= 400) misses.push(response.url());
    });
    const connected = page.locator('html[data-pkg-dev="connected"]');
    await page.goto(dev.url);
    await connected.waitFor({ state: "attached" });

    // a marker that survives only until the page reloads
    await page.evaluate(() => document.body.setAttribute("data-before-reload", ""));
    await writeFile(join(work.path, "site.css"), "body { color: crimson; }\n");
    await page.locator("body:not([data-before-reload])").waitFor({ state: "attached" });

    await connected.waitFor({ state: "attached" });
    await writeFile(join(work.path, "catalog.config.json"), '{ "brand": ');
    const overlay = page.locator("#pkg-dev-error");
    await overlay.waitFor({ state: "visible" });
    expect(await overlay.getAttribute("role")).toBe("alert");
    expect(await overlay.textContent()).toMatch(/rebuild failed.*\nINVALID_JSON: /s);
    await expect.poll(() => overlay.evaluate((node) => getComputedStyle(node).position)).toBe("fixed");

    await writeFile(join(work.path, "catalog.config.json"), JSON.stringify(config));
    await overlay.waitFor({ state: "detached" });
    await page.waitForLoadState("load");
    expect(misses).toEqual([]);
  } finally {
    await context.close();
  }
  expect(watch.take()).toEqual([]);
});
