import { lstat, mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join, posix } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkOutputDir, withAtomicOutput } from "../../src/build/atomic-output.js";
import { sha256Hex } from "../../src/build/memo.js";
import { SiteWriter } from "../../src/build/site-writer.js";

let dir: TempDir;
beforeEach(async () => {
  dir = await tempDir("site-writer-");
});
afterEach(async () => {
  await dir.remove();
});

describe("SiteWriter", () => {
  it("writes files inside the root and refuses any path that is not plain", async () => {
    const writer = new SiteWriter(join(dir.path, "site"));
    await writer.write("a/b.txt", "ok", "test");
    expect(await readFile(join(dir.path, "site/a/b.txt"), "utf8")).toBe("ok");
    for (const bad of [
      "../escape.txt",
      "a/../../escape",
      "a//b",
      "./a",
      "a\\..\\b",
      "a/\u0000b",
      "",
      "a/.",
    ]) {
      await expect(writer.write(bad, "x", "test"), bad).rejects.toThrow(/refusing to write/);
    }
    expect((await readdir(dir.path)).sort()).toEqual(["site"]);
  });

  it("treats a second write to a path, or a file where a directory is, as a route collision", async () => {
    const writer = new SiteWriter(join(dir.path, "site"));
    await writer.write("x/index.html", "1", "the first page");
    await expect(writer.write("x/index.html", "2", "the second page")).rejects.toThrow(
      "route collision: /x/index.html is produced by the first page and by the second page",
    );
    await expect(writer.write("x/index.html/y", "3", "a third")).rejects.toThrow(
      /route collision: \/x\/index.html/,
    );
    await expect(writer.write("x", "4", "a file")).rejects.toThrow(
      /route collision: \/x is produced by a directory/,
    );
    expect(await readFile(join(dir.path, "site/x/index.html"), "utf8")).toBe("1");
  });

  it("writes a second copy as the same bytes (a hard link where the filesystem has them)", async () => {
    const writer = new SiteWriter(join(dir.path, "site"));
    const bytes = new TextEncoder().encode("{}\n");
    writer.writeSync("index/x/c/index.json", bytes, "test");
    writer.linkSync("c/index.json", "index/x/c/index.json", "test");
    expect(await readFile(join(dir.path, "site/c/index.json"), "utf8")).toBe("{}\n");
    expect((await stat(join(dir.path, "site/c/index.json"))).ino).toBe(
      (await stat(join(dir.path, "site/index/x/c/index.json"))).ino,
    );
  });
});

describe("SiteWriter.pagePath", () => {
  it("is the route's index.html, relative, as posix.join makes it for any route", () => {
    const routes = [
      "/",
      "/a/",
      "/a/b.c/",
      "/synth.dev/acme/build-1/",
      "/a/../b/",
      "/a/./b/",
      "//a//",
      "/a",
      "",
      "a/b/",
      "/..a/",
      "/.a/",
    ];
    for (const route of routes)
      expect(SiteWriter.pagePath(route)).toBe(posix.join(route, "index.html").replace(/^\/+/, ""));
    expect(SiteWriter.pagePath("/")).toBe("index.html");
    expect(SiteWriter.pagePath("/a/b/")).toBe("a/b/index.html");
    expect(SiteWriter.pagePath("/a/../b/")).toBe("b/index.html");
  });
});

describe("atomic output", () => {
  it("updating in place, removes what it no longer produces, but never a path outside the root", async () => {
    const root = join(dir.path, "site");
    await mkdir(join(root, "a"), { recursive: true });
    await writeFile(join(root, "a/kept.txt"), "kept");
    await writeFile(join(root, "a/gone.txt"), "gone");
    await writeFile(join(dir.path, "outside.txt"), "not the site's");
    const files = new Map([
      ["a/kept.txt", { key: sha256Hex("kept") }],
      ["a/gone.txt", { key: "old" }],
      // a memo naming what no build writes (edited by hand, say)
      ["../outside.txt", { key: "x" }],
      ["a/../../outside.txt", { key: "x" }],
    ]);
    const writer = new SiteWriter(root, { previous: { files, stage: join(dir.path, "stage") } });
    writer.writeSync("a/kept.txt", "kept", "test");
    expect(writer.commit()).toBe(1);
    expect(await readdir(join(root, "a"))).toEqual(["kept.txt"]);
    expect(await readFile(join(dir.path, "outside.txt"), "utf8")).toBe("not the site's");
    expect([...writer.files.keys()]).toEqual(["a/kept.txt"]);
  });

  it("swaps a finished build in and removes the old output", async () => {
    const out = join(dir.path, "out");
    await withAtomicOutput(out, async (temp) => writeFile(join(temp, "a"), "1"));
    await withAtomicOutput(out, async (temp) => writeFile(join(temp, "b"), "2"));
    expect(await readdir(out)).toEqual(["b"]);
    expect(await readdir(dir.path)).toEqual(["out"]);
  });

  it("keeps the old output and removes the temp dir when the build throws", async () => {
    const out = join(dir.path, "out");
    await withAtomicOutput(out, async (temp) => writeFile(join(temp, "a"), "1"));
    await expect(
      withAtomicOutput(out, async (temp) => {
        await writeFile(join(temp, "half"), "written");
        throw new Error("midway");
      }),
    ).rejects.toThrow("midway");
    expect(await readdir(out)).toEqual(["a"]);
    expect(await readdir(dir.path)).toEqual(["out"]);
  });

  it("refuses an output that is a file, before building", async () => {
    const out = join(dir.path, "file");
    await writeFile(out, "keep");
    let built = false;
    await expect(
      withAtomicOutput(out, async () => {
        built = true;
      }),
    ).rejects.toThrow(/exists and is not a directory/);
    expect(built).toBe(false);
    expect((await lstat(out)).isFile()).toBe(true);
  });

  it("refuses an output directory that contains what the build reads", () => {
    expect(() => checkOutputDir("/work/site", ["/work/site/catalog"])).toThrow(
      /would replace \/work\/site\/catalog/,
    );
    expect(() => checkOutputDir("/work", ["/work"])).toThrow(/would replace \/work/);
    expect(() => checkOutputDir("/work/site", ["/work", "/work/index"])).not.toThrow();
  });
});
