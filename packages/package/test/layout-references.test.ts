import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeSampleTree } from "./support/fixture-tree.js";
import { runPkg } from "./support/run-pkg.js";

let work: TempDir;
let layout: string;
let bundle: string;

beforeAll(async () => {
  work = await tempDir("pkg-layout-refs-");
  layout = join(work.path, "layout");
  const tree = join(work.path, "tree");
  await writeSampleTree(tree);
  bundle = join(work.path, "tool.tar.zst");
  expect((await runPkg(["package", "create", tree, "-o", bundle])).code).toBe(0);
});
afterAll(async () => {
  await work?.remove();
});

async function ok(args: string[]) {
  const result = await runPkg(["package", ...args]);
  expect(result.code, result.stderr).toBe(0);
  return result;
}

describe("--layout takes a reference without a registry host", () => {
  it("pushes, lists, describes and pulls REPOSITORY:TAG and REPOSITORY@DIGEST", async () => {
    const pushed = await ok([
      "push",
      "--layout",
      layout,
      "-i",
      "tools/hello:1.0",
      "-p",
      "linux/amd64",
      "--format",
      "json",
      bundle,
    ]);
    const { manifestDigest } = JSON.parse(pushed.stdout) as { manifestDigest: string };
    await ok(["push", "--layout", layout, "-i", "hello:1.0", "-p", "linux/amd64", bundle]);
    expect(JSON.parse(await readFile(join(layout, "tools/hello/oci-layout"), "utf8"))).toEqual({
      imageLayoutVersion: "1.0.0",
    });

    const tags = await ok(["tags", "--layout", layout, "hello", "--format", "json"]);
    expect((JSON.parse(tags.stdout) as Array<{ tag: string }>).map((row) => row.tag)).toEqual(["1.0"]);

    const readme = join(work.path, "README.md");
    await writeFile(readme, "# hello\n");
    const described = await ok(["describe", "--layout", layout, "tools/hello", "--readme", readme]);
    expect(described.stderr).toContain("tools/hello:__pkg.desc");

    const byTag = join(work.path, "by-tag");
    await ok(["pull", "--layout", layout, "hello:1.0", "--platform", "linux/amd64", "-o", byTag]);
    expect(await readFile(join(byTag, "content", "bin", "tool"), "utf8")).toContain("echo tool");
    const byDigest = join(work.path, "by-digest");
    await ok(["pull", "--layout", layout, `tools/hello@${manifestDigest}`, "-o", byDigest]);
    expect(await readFile(join(byDigest, "content", "bin", "tool"), "utf8")).toContain("echo tool");
  });

  it("still takes a registry host, and ignores it", async () => {
    const out = join(work.path, "with-host");
    await ok(["pull", "--layout", layout, "localhost/hello:1.0", "--platform", "linux/amd64", "-o", out]);
    const tags = await ok([
      "tags",
      "--layout",
      layout,
      "registry.example.com/tools/hello",
      "--format",
      "json",
    ]);
    expect((JSON.parse(tags.stdout) as Array<{ tag: string }>).map((row) => row.tag)).toEqual([
      "1.0",
      "__pkg.desc",
    ]);
  });

  it("needs the registry host without --layout (exit 64)", async () => {
    const result = await runPkg(["package", "pull", "hello:1.0", "-o", join(work.path, "none")]);
    expect(result.code).toBe(64);
    expect(result.stderr).toBe(
      'pkg: invalid reference "hello:1.0": must start with a registry host (<host>[:port]/<repository>)\n',
    );
  });

  it.each(["push", "pull", "tags", "describe"])("says so in pkg package %s --help", async (command) => {
    const help = await ok([command, "--help"]);
    expect(help.stdout.replace(/\s+/g, " ")).toMatch(/with --layout,? REPOSITORY/);
  });
});
