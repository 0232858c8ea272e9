import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPageRenderer } from "../../src/build/page-pool.js";
import { buildSiteModel } from "../../src/site/model/site-model.js";
import type { SiteChrome } from "../../src/site/render/chrome.js";
import { catalogConfig, loadedIndex, loadedPackage } from "../support/model-fixtures.js";

const chrome: SiteChrome = { title: "T", wordmark: "T", nav: [], footerLinks: [], stylesheets: [] };
const model = buildSiteModel(
  catalogConfig([{ root: true }]),
  [loadedIndex("x", 0, [loadedPackage("x", "a/b"), loadedPackage("x", "a/c")])],
  () => {},
);
const [first, second] = model.indexes[0]?.packages ?? [];
const readme = "# Hello\n\n<script>alert(1)</script>\n\n[link](https://example.com/)\n";

let dir: TempDir;
beforeEach(async () => {
  dir = await tempDir("page-pool-");
});
afterEach(async () => {
  await dir.remove();
});

describe("page renderer", () => {
  it("writes the same page from the worker pool as in this thread", async () => {
    if (!first || !second) throw new Error("fixture");
    const readmeFile = join(dir.path, "readme.md");
    await writeFile(readmeFile, readme);
    const pool = createPageRenderer(chrome, 2);
    const local = createPageRenderer(chrome, 0);
    try {
      const [ident] = await Promise.all([
        pool.run({ file: join(dir.path, "pool.html"), pkg: first, readmeFile }),
        pool.run({ file: join(dir.path, "pool-2.html"), pkg: second }),
        local.run({ file: join(dir.path, "local.html"), pkg: first, readmeFile }),
      ]);
      const written = await stat(join(dir.path, "pool.html"));
      expect(ident).toEqual([written.ino, written.size, written.mtimeMs]);
    } finally {
      await Promise.all([pool.close(), local.close()]);
    }
    const html = await readFile(join(dir.path, "pool.html"), "utf8");
    expect(html).toBe(await readFile(join(dir.path, "local.html"), "utf8"));
    expect(html).toContain("<h3>Hello</h3>");
    expect(html).not.toContain("<script>alert");
    expect(await readFile(join(dir.path, "pool-2.html"), "utf8")).toContain("<h1>c</h1>");
  });

  it("reports a page that cannot be written as an I/O error, and keeps working", async () => {
    if (!first) throw new Error("fixture");
    const pool = createPageRenderer(chrome, 1);
    try {
      await expect(
        pool.run({ file: join(dir.path, "missing-dir", "x.html"), pkg: first }),
      ).rejects.toMatchObject({
        exitCode: 74,
        message: expect.stringMatching(/cannot write .*x\.html: ENOENT/),
      });
      await pool.run({ file: join(dir.path, "ok.html"), pkg: first });
      expect(await readFile(join(dir.path, "ok.html"), "utf8")).toContain("<!doctype html>");
    } finally {
      await pool.close();
    }
  });
});
