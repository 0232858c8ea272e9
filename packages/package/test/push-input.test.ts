import { stat } from "node:fs/promises";
import { join } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeSampleTree } from "./support/fixture-tree.js";
import { runPkg } from "./support/run-pkg.js";

let work: TempDir;
let bundle: string;

beforeAll(async () => {
  work = await tempDir("pkg-input-");
  await writeSampleTree(join(work.path, "tree"));
  bundle = join(work.path, "tool.tar.zst");
  expect((await runPkg(["package", "create", join(work.path, "tree"), "-o", bundle])).code).toBe(0);
});
afterAll(async () => {
  await work?.remove();
});

// Bad input never reaches a registry: the layout target keeps these tests offline.
describe("bad input to pkg package push exits 64/65 with one clear line", () => {
  const cases: Array<[string, () => string[], number, RegExp]> = [
    [
      "missing layer file",
      () => ["-i", "r.test/a/b:1.0.0", "-p", "linux/amd64", join(work.path, "nope.tar.zst")],
      65,
      /nope\.tar\.zst/,
    ],
    [
      "layer that is not a bundle",
      () => [
        "-i",
        "r.test/a/b:1.0.0",
        "-p",
        "linux/amd64",
        join(work.path, "tree", "share", "doc", "README"),
      ],
      65,
      /README/,
    ],
    ["bad platform key", () => ["-i", "r.test/a/b:1.0.0", "-p", "linux", bundle], 64, /linux/],
    [
      "unknown libc flavor",
      () => ["-i", "r.test/a/b:1.0.0", "-p", "linux/amd64+libc.uclibc", bundle],
      64,
      /uclibc/,
    ],
    ["bad reference", () => ["-i", "r.test/A B:1.0.0", "-p", "linux/amd64", bundle], 64, /A B/],
    [
      "reference without a tag, in a layout",
      () => ["-i", "acme/tool", "-p", "linux/amd64", bundle],
      64,
      /name a tag \(REPOSITORY:TAG\)/,
    ],
    ["reference without a tag", () => ["-i", "r.test/a/b", "-p", "linux/amd64", bundle], 64, /tag/],
    [
      "bad annotation",
      () => ["-i", "r.test/a/b:1.0.0", "-p", "linux/amd64", "--annotation", "novalue", bundle],
      64,
      /novalue/,
    ],
    [
      "cascade on a tag that is no version",
      () => ["-i", "r.test/a/b:nightly", "-p", "linux/amd64", "--cascade", bundle],
      64,
      /nightly/,
    ],
    [
      "unknown option",
      () => ["-i", "r.test/a/b:1.0.0", "-p", "linux/amd64", "--frobnicate", bundle],
      64,
      /frobnicate/,
    ],
    [
      "reserved tag __pkg.published",
      () => ["-i", "r.test/a/b:__pkg.published", "-p", "linux/amd64", bundle],
      64,
      /__pkg\.published is reserved/,
    ],
    [
      "reserved tag __pkg.desc",
      () => ["-i", "r.test/a/b:__pkg.desc", "-p", "linux/amd64", bundle],
      64,
      /__pkg\.desc is reserved/,
    ],
    [
      "reserved tag __pkg.*, cascading",
      () => ["-i", "r.test/a/b:__pkg.x", "-p", "linux/amd64", "--cascade", bundle],
      64,
      /__pkg\.x is reserved/,
    ],
    ["missing -p", () => ["-i", "r.test/a/b:1.0.0", bundle], 64, /platform/],
    [
      "bad metadata file",
      () => ["-i", "r.test/a/b:1.0.0", "-p", "linux/amd64", "--metadata", bundle, bundle],
      65,
      /metadata|JSON/i,
    ],
  ];

  it.each(cases)("%s", async (_name, args, code, message) => {
    const layout = join(work.path, "layout");
    const result = await runPkg(["package", "push", "--layout", layout, ...args()]);
    expect(result.code, result.stderr).toBe(code);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^pkg: /);
    expect(lines[0]).toMatch(message);
    expect(result.stdout).toBe("");
    // refused before anything is written
    await expect(stat(layout)).rejects.toThrow();
  });
});
