import { execFileSync } from "node:child_process";
import { cp, mkdir, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Of } from "../src/index.js";
import type { WalkedIndex } from "../src/read/index.js";
import {
  copyIndex,
  ocxIndexDir,
  publishRoot,
  readJson,
  setCatalogDigest,
  walkDirectory,
} from "./support/fixtures.js";

const hexOf = (digest: string) => digest.slice("sha256:".length);

async function rootOf(indexDir: string, key: string) {
  return readJson(join(indexDir, "p", `${key}.json`));
}

describe("hostile index data in a local tree", () => {
  let temp: TempDir;
  let indexDir: string;
  let outside: string;
  let index: WalkedIndex;
  const outsideBytes: Uint8Array[] = [];

  beforeAll(async () => {
    temp = await tempDir("index-hostile-");
    indexDir = await copyIndex(temp.path);
    outside = join(temp.path, "outside");
    await mkdir(outside);
    const p = (key: string) => join(indexDir, "p", `${key}.json`);

    // Keys that try to leave p/, or have the wrong number of segments.
    await setCatalogDigest(indexDir, "../escape", `sha256:${"0".repeat(64)}`);
    await setCatalogDigest(indexDir, "astral-sh/..", `sha256:${"0".repeat(64)}`);
    await setCatalogDigest(indexDir, "a/b/c", `sha256:${"0".repeat(64)}`);
    // A root whose bytes are not the ones c/index.json names.
    await setCatalogDigest(indexDir, "anchore/syft", sha256Of(new TextEncoder().encode("something else")));
    // An oversized root with a matching digest.
    const corretto = await rootOf(indexDir, "amazon/corretto");
    await publishRoot(
      indexDir,
      "amazon/corretto",
      JSON.stringify({ ...corretto, deprecated_message: "x".repeat(5 << 20) }),
    );
    // A root that links out of the tree: same bytes, so it would verify if it were read.
    await rename(p("aquasecurity/trivy"), join(outside, "trivy.json"));
    await symlink(join(outside, "trivy.json"), p("aquasecurity/trivy"));
    outsideBytes.push(await readFile(join(outside, "trivy.json")));
    // A whole namespace directory that links out of the tree.
    await rename(join(indexDir, "p", "bazelbuild"), join(outside, "bazelbuild"));
    await symlink(join(outside, "bazelbuild"), join(indexDir, "p", "bazelbuild"));
    // A root that links inside the tree is fine.
    await rename(p("astral-sh/ruff"), join(indexDir, "ruff-root.json"));
    await symlink("../../ruff-root.json", p("astral-sh/ruff"));
    // A root whose name disagrees with its key.
    await publishRoot(indexDir, "actionlint/actionlint", await readFile(p("astral-sh/uv")));
    // A readme that links out of the tree, same bytes.
    const biome = await rootOf(indexDir, "biomejs/biome");
    const biomeDesc = biome.desc as { readme: string; logo: string };
    const biomeReadme = join(indexDir, "p/biomejs/biome/o/sha256", `${hexOf(biomeDesc.readme)}.md`);
    await rename(biomeReadme, join(outside, "biome.md"));
    await symlink(join(outside, "biome.md"), biomeReadme);
    outsideBytes.push(await readFile(join(outside, "biome.md")));
    // A FIFO where a logo should be: refused, nothing hangs.
    const bufDesc = (await rootOf(indexDir, "bufbuild/buf")).desc as { logo: string };
    const bufLogo = join(indexDir, "p/bufbuild/buf/o/sha256", `${hexOf(bufDesc.logo)}.svg`);
    await rm(bufLogo);
    execFileSync("mkfifo", [bufLogo]);
    // An image index whose bytes were changed.
    const ccache = await rootOf(indexDir, "ccache/ccache");
    const ccacheContent = Object.values(ccache.tags as Record<string, { content: string }>)[0]
      ?.content as string;
    await writeFile(join(indexDir, "p/ccache/ccache/o/sha256", `${hexOf(ccacheContent)}.json`), "{}");
    // An oversized readme whose digest matches, republished in its root.
    const big = new TextEncoder().encode(`# big\n${"y".repeat(2 << 20)}`);
    const gum = await rootOf(indexDir, "charmbracelet/gum");
    const gumDesc = { ...(gum.desc as object), readme: sha256Of(big) };
    await writeFile(join(indexDir, "p/charmbracelet/gum/o/sha256", `${hexOf(sha256Of(big))}.md`), big);
    await publishRoot(indexDir, "charmbracelet/gum", JSON.stringify({ ...gum, desc: gumDesc }));

    index = await walkDirectory(indexDir);
  });

  afterAll(async () => {
    await temp?.remove();
  });

  const byPath = () => new Map(index.packages.map(({ pkg }) => [pkg.path, pkg]));
  const warningFor = (needle: string) => index.warnings.filter((line) => line.includes(needle));

  it("skips packages whose key or root is bad, with one warning line naming each", () => {
    const skipped = [
      ["../escape", "not a valid package path"],
      ["astral-sh/..", "not a valid package path"],
      ["a/b/c", "not a valid package path"],
      ["anchore/syft", "expected sha256:"],
      ["amazon/corretto", "more than the 4194304 allowed"],
      ["aquasecurity/trivy", "links outside the index"],
      ["bazelbuild/bazelisk", "links outside the index"],
      ["bazelbuild/buildozer", "links outside the index"],
      ["actionlint/actionlint", 'root name "ocx.sh/astral-sh/uv" does not match its c/index.json key'],
    ];
    for (const [key, reason] of skipped) {
      const lines = warningFor(`skipped package ${key}`).concat(warningFor(`skipped package "${key}"`));
      expect(lines, key).toHaveLength(1);
      expect(lines[0], key).toContain(reason);
      expect(lines[0]).toMatch(/^sources\[0\]: /);
    }
    const paths = [...byPath().keys()];
    for (const [key] of skipped) expect(paths).not.toContain(key);
    expect(paths).toHaveLength(62 - 6);
  });

  it("keeps a package whose object is bad, leaving only that object out", () => {
    const pkgs = byPath();
    expect(pkgs.get("biomejs/biome")?.readme).toBeUndefined();
    expect(pkgs.get("biomejs/biome")?.logo).toBeDefined();
    expect(warningFor("package biomejs/biome: left out readme")[0]).toContain("links outside the index");
    expect(pkgs.get("bufbuild/buf")?.logo).toBeUndefined();
    expect(warningFor("package bufbuild/buf: left out logo")[0]).toContain("not a regular file");
    expect(warningFor("package ccache/ccache: left out image index")[0]).toContain("expected sha256:");
    expect(pkgs.get("ccache/ccache")?.imageIndexes.size).toBeGreaterThan(0);
    expect(pkgs.get("charmbracelet/gum")?.readme).toBeUndefined();
    expect(warningFor("package charmbracelet/gum: left out readme")[0]).toContain("more than the 1048576");
    expect(index.warnings).toHaveLength(9 + 4);
  });

  it("follows links that stay inside the tree", () => {
    expect(byPath().get("astral-sh/ruff")?.name).toBe("ocx.sh/astral-sh/ruff");
    expect(index.files.has("p/astral-sh/ruff.json")).toBe(true);
  });

  it("mirrors nothing from outside the tree and nothing of a skipped package", () => {
    for (const [path, bytes] of index.files) {
      expect(path).not.toContain("..");
      for (const foreign of outsideBytes) expect(Buffer.from(bytes).equals(foreign), path).toBe(false);
    }
    const mirrored = [...index.files.keys()];
    for (const prefix of [
      "p/anchore/syft",
      "p/amazon/corretto",
      "p/aquasecurity/",
      "p/bazelbuild/",
      "p/actionlint/",
    ]) {
      expect(mirrored.filter((path) => path.startsWith(prefix))).toEqual([]);
    }
  });
});

describe("a local tree whose top-level files are bad", () => {
  let temp: TempDir;
  beforeAll(async () => {
    temp = await tempDir("index-bad-top-");
  });
  afterAll(async () => {
    await temp?.remove();
  });

  async function failure(setUp: (indexDir: string) => Promise<void>) {
    const dir = join(temp.path, `case-${Math.random().toString(36).slice(2)}`);
    await mkdir(dir);
    // The top-level files are read first: they are all such a case needs.
    const indexDir = join(dir, "index");
    await mkdir(join(indexDir, "c"), { recursive: true });
    await cp(join(ocxIndexDir, "config.json"), join(indexDir, "config.json"));
    await cp(join(ocxIndexDir, "c", "index.json"), join(indexDir, "c", "index.json"));
    await setUp(indexDir);
    try {
      await walkDirectory(indexDir);
    } catch (error) {
      return error as { exitCode: number; message: string };
    }
    throw new Error("expected a failure");
  }

  it("refuses a newer format_version (exit 65)", async () => {
    const error = await failure((dir) => writeFile(join(dir, "config.json"), '{"format_version":2}'));
    expect(error.exitCode).toBe(65);
    expect(error.message.startsWith(temp.path)).toBe(true);
    expect(error.message).toMatch(
      /\/index\/config\.json: format_version 2 is newer than this tool understands \(1\)$/,
    );
  });

  it("refuses an invalid c/index.json (exit 65)", async () => {
    const error = await failure((dir) => writeFile(join(dir, "c", "index.json"), '{"format_version":1}'));
    expect(error.exitCode).toBe(65);
    expect(error.message).toMatch(/c\/index\.json: \$\.packages: required property missing$/);
  });

  it("refuses a config.json that links out of the tree (exit 65)", async () => {
    const error = await failure(async (dir) => {
      await cp(join(dir, "config.json"), join(dir, "..", "config.json"));
      await rm(join(dir, "config.json"));
      await symlink(join(dir, "..", "config.json"), join(dir, "config.json"));
    });
    expect(error.exitCode).toBe(65);
    expect(error.message).toMatch(/config\.json: links outside the index$/);
  });

  it("refuses a directory that is not an index (exit 65)", async () => {
    const error = await failure((dir) => rm(join(dir, "config.json")));
    expect(error.exitCode).toBe(65);
    expect(error.message).toMatch(/config\.json: not found; not a package index$/);
    const missing = await walkDirectory(join(temp.path, "nope")).catch(
      (e: unknown) => e as { exitCode: number; message: string },
    );
    expect(missing).toMatchObject({
      exitCode: 65,
      message: `${join(temp.path, "nope")}: index directory does not exist`,
    });
  });
});
