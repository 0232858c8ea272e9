import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalogConfig } from "../../src/config/load.js";
import { base } from "../support/config-case.js";

let work: TempDir;
beforeAll(async () => {
  work = await tempDir("catalog-load-");
});
afterAll(async () => {
  await work?.remove();
});

describe("loadCatalogConfig: reading the file", () => {
  it("is MISSING_FILE for a dangling symlink (ENOENT)", async () => {
    const file = join(work.path, "dangling.json");
    await symlink(join(work.path, "nowhere.json"), file);
    await expect(loadCatalogConfig(file)).rejects.toMatchObject({ code: "MISSING_FILE", exitCode: 65 });
  });

  it("is READ_ERROR for a symlink loop: it exists but cannot be read", async () => {
    const file = join(work.path, "loop.json");
    await symlink(file, file);
    await expect(loadCatalogConfig(file)).rejects.toMatchObject({
      code: "READ_ERROR",
      message: expect.stringMatching(/^READ_ERROR: .*loop\.json cannot be read: ELOOP/),
    });
  });

  it("is READ_ERROR, not MISSING_FILE, when a parent is a file (ENOTDIR)", async () => {
    const parent = join(work.path, "plain-file");
    await writeFile(parent, "x");
    await expect(loadCatalogConfig(join(parent, "catalog.config.json"))).rejects.toMatchObject({
      code: "READ_ERROR",
    });
  });

  it("reads a file given by a relative path from the working directory", async () => {
    const dir = join(work.path, "relative");
    await mkdir(dir);
    await writeFile(join(dir, "catalog.config.json"), JSON.stringify(base()));
    const parsed = await loadCatalogConfig(relative(process.cwd(), join(dir, "catalog.config.json")));
    expect(parsed.dir).toBe(dir);
    expect(parsed.sources[0]).toMatchObject({ path: join(dir, "index") });
  });
});
