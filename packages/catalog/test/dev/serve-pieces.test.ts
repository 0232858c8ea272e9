import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { injectReloadScript } from "../../src/dev/inject-reload.js";
import { requestSegments } from "../../src/dev/request-path.js";
import { lookupSiteFile } from "../../src/dev/site-files.js";
import { watchTargets } from "../../src/dev/watch-targets.js";

const tag = '<script src="/__pkg-dev/reload.js" defer></script>';

describe("requestSegments", () => {
  it("splits and decodes a path", () => {
    expect(requestSegments("/")).toEqual([]);
    expect(requestSegments("/a/b.html")).toEqual(["a", "b.html"]);
    expect(requestSegments("/ocx.sh/x%20y/")).toEqual(["ocx.sh", "x y"]);
  });

  it("refuses what could leave the site or is ambiguous", () => {
    for (const path of [
      "/../etc/passwd",
      "/a/../../b",
      "/a/%2e%2e/b",
      "/%2e%2e",
      "/a%2fb",
      "/a%5cb",
      "/a%00",
      "//x",
      "/a//b",
      "/%zz",
      "/.",
      "x",
    ]) {
      expect(requestSegments(path), path).toBeUndefined();
    }
  });
});

describe("injectReloadScript", () => {
  it("goes before </head>, else </body>, else at the end", () => {
    expect(injectReloadScript("<html><head><title>t</title></HEAD><body></body></html>")).toBe(
      `<html><head><title>t</title>${tag}</HEAD><body></body></html>`,
    );
    expect(injectReloadScript("<p>x</p></body >")).toBe(`<p>x</p>${tag}</body >`);
    expect(injectReloadScript("<p>x</p>")).toBe(`<p>x</p>${tag}`);
  });
});

describe("lookupSiteFile", () => {
  let dir: TempDir;
  let root: string;
  beforeAll(async () => {
    dir = await tempDir("dev-lookup-");
    root = join(dir.path, "site");
    await mkdir(join(root, "pkg", "tool"), { recursive: true });
    await writeFile(join(root, "index.html"), "home");
    await writeFile(join(root, "pkg", "tool", "index.html"), "tool");
    await writeFile(join(root, "about.html"), "about");
    await writeFile(join(dir.path, "secret.txt"), "secret");
    await symlink(join(dir.path, "secret.txt"), join(root, "leak.txt"));
    await symlink(dir.path, join(root, "up"));
  });
  afterAll(async () => {
    await dir.remove();
  });

  it("serves files, directory indexes and .html fallbacks", async () => {
    expect(await lookupSiteFile(root, "/")).toEqual({ kind: "file", path: join(root, "index.html") });
    expect(await lookupSiteFile(root, "/pkg/tool/")).toEqual({
      kind: "file",
      path: join(root, "pkg", "tool", "index.html"),
    });
    expect(await lookupSiteFile(root, "/pkg/tool")).toEqual({ kind: "redirect", location: "/pkg/tool/" });
    expect(await lookupSiteFile(root, "/about")).toEqual({ kind: "file", path: join(root, "about.html") });
    expect(await lookupSiteFile(root, "/nope")).toEqual({ kind: "missing" });
    expect(await lookupSiteFile(root, "/pkg/")).toEqual({ kind: "missing" });
  });

  it("never resolves outside the site, links included", async () => {
    expect(await lookupSiteFile(root, "/leak.txt")).toEqual({ kind: "missing" });
    expect(await lookupSiteFile(root, "/up/secret.txt")).toEqual({ kind: "missing" });
    expect(await lookupSiteFile(root, "/../secret.txt")).toEqual({ kind: "missing" });
    expect(await lookupSiteFile(root, "/%2e%2e/secret.txt")).toEqual({ kind: "missing" });
  });
});

describe("watchTargets", () => {
  it("names the config, local sources, docs, public dir, css and logo", () => {
    expect(
      watchTargets({
        file: "/r/catalog.config.json",
        dir: "/r",
        sources: [
          { kind: "path", index: 0, path: "/r/index", rawPath: "index", root: true },
          { kind: "url", index: 1, url: "https://example.test/idx" },
          { kind: "git", index: 2, git: "https://example.test/idx.git" },
        ],
        brand: { title: "T", logo: "/r/assets/logo.svg" },
        docs: "/r/docs",
        publicDir: "/r/public",
        css: "/r/site.css",
      }),
    ).toEqual({
      trees: ["/r/index", "/r/docs", "/r/public"],
      files: ["/r/catalog.config.json", "/r/site.css", "/r/assets/logo.svg"],
    });
  });
});
