import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, launchChromium, type RunningChromium } from "../src/browser.js";
import type { TestServer } from "../src/http-server.js";
import { serveDirectory } from "../src/static-server.js";
import { type TempDir, tempDir } from "../src/temp-dir.js";

describe("launchChromium", () => {
  let dir: TempDir;
  let server: TestServer;
  let chromium: RunningChromium;

  beforeAll(async () => {
    dir = await tempDir("browser-");
    await mkdir(join(dir.path, "site"));
    await writeFile(
      join(dir.path, "site", "index.html"),
      '<!doctype html><html lang="en"><head><title>t</title><script src="/app.js"></script></head>' +
        "<body><main><h1>Hello</h1><img src=/x.png></main></body></html>",
    );
    await writeFile(join(dir.path, "site", "app.js"), 'document.documentElement.dataset.ran = "yes";');
    server = await serveDirectory(join(dir.path, "site"), {
      headers: { "content-security-policy": "default-src 'self'" },
    });
    chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await server?.stop();
    await dir?.remove();
  });

  it("drives Debian's Chromium with a fresh profile and runs axe-core under a strict CSP", async () => {
    const context = await chromium.browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(server.url);
    expect(await page.locator("html").getAttribute("data-ran")).toBe("yes");
    const violations = await axeViolations(page);
    expect(violations.map((v) => v.id)).toEqual(["image-alt"]);
    await context.close();
  });

  it("removes the profile directory and stops the browser on close", async () => {
    const other = await launchChromium();
    const profile = other.profileDir;
    const existed = existsSync(profile);
    await other.close();
    expect(existed).toBe(true);
    expect(existsSync(profile)).toBe(false);
    expect(other.browser.isConnected()).toBe(false);
    expect(() => process.kill(other.pid, 0)).toThrow();
  });
});
