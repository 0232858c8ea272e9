import { mkdir, readdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CraftedEntry, craftTar, run } from "./support/bundle-trees.js";
import { writeSampleTree } from "./support/fixture-tree.js";
import { runPkg } from "./support/run-pkg.js";

let work: TempDir;
let layout: string;
beforeAll(async () => {
  work = await tempDir("pkg-symlink-escape-");
  layout = join(work.path, "layout");
});
afterAll(async () => {
  await work?.remove();
});

/** A hand-made layer: a tar of `entries`, compressed with the zstd tool. */
async function hostileLayer(name: string, entries: CraftedEntry[]): Promise<string> {
  const tar = join(work.path, `${name}.tar`);
  await craftTar(tar, entries);
  await run("zstd", ["-q", "--rm", tar, "-o", `${tar}.zst`]);
  return `${tar}.zst`;
}

async function pushLayers(tag: string, layers: string[]): Promise<string> {
  const ref = `demo.test/acme/hostile:${tag}`;
  const pushed = await runPkg([
    "package",
    "push",
    "--layout",
    layout,
    "-i",
    ref,
    "-p",
    "linux/amd64",
    ...layers,
  ]);
  expect(pushed.code, pushed.stderr).toBe(0);
  return ref;
}

describe("symlinks that point outside the package", () => {
  it("are refused by pkg package create, naming the entry and its target (exit 65, no output)", async () => {
    const tree = join(work.path, "tree");
    await writeSampleTree(tree);
    await symlink("/etc/passwd", join(tree, "share", "passwd"));
    const out = join(work.path, "created");
    await mkdir(out);
    const result = await runPkg(["package", "create", tree, "-o", join(out, "tool.tar.zst")]);
    expect(result.code).toBe(65);
    expect(result.stderr.trim()).toBe(
      `pkg: ${join(tree, "share", "passwd")}: symlink to /etc/passwd points outside the package tree; a package holds only links that stay inside it`,
    );
    expect(await readdir(out)).toEqual([]);
  });

  it("are refused by pkg package pull, naming the entry (exit 65), leaving nothing behind", async () => {
    const layer = await hostileLayer("climbs", [
      { header: { name: "bin/", type: "directory" } },
      { header: { name: "bin/tool", type: "file", mode: 0o755 }, content: "#!/bin/sh\n" },
      { header: { name: "bin/shadow", type: "symlink", linkname: "../../../etc/shadow" } },
    ]);
    const ref = await pushLayers("1.0.0", [layer]);
    const parent = join(work.path, "pulls-1");
    await mkdir(parent);
    const result = await runPkg(["package", "pull", "--layout", layout, ref, "-o", join(parent, "out")]);
    expect(result.code).toBe(65);
    expect(result.stderr.trim().split("\n").at(-1)).toMatch(
      /^pkg: .*archive entry "bin\/shadow" is a symlink to "\.\.\/\.\.\/\.\.\/etc\/shadow", outside the package tree$/,
    );
    expect(await readdir(parent)).toEqual([]);
  });

  it("are refused by pull when two layers, each harmless alone, lead out together", async () => {
    const first = await hostileLayer("first", [{ header: { name: "d/s", type: "symlink", linkname: "." } }]);
    const second = await hostileLayer("second", [
      { header: { name: "d/t", type: "symlink", linkname: "s/../../outside" } },
    ]);
    const ref = await pushLayers("2.0.0", [first, second]);
    const parent = join(work.path, "pulls-2");
    await mkdir(parent);
    const result = await runPkg(["package", "pull", "--layout", layout, ref, "-o", join(parent, "out")]);
    expect(result.code).toBe(65);
    expect(result.stderr).toContain("symlink d/t (to s/../../outside) leads outside the package");
    expect(await readdir(parent)).toEqual([]);
  });

  it("are kept when they climb with .. and stay inside", async () => {
    const layer = await hostileLayer("inside", [
      { header: { name: "share/doc/README", type: "file" }, content: "read me\n" },
      { header: { name: "bin/readme", type: "symlink", linkname: "../share/doc/../doc/README" } },
    ]);
    const ref = await pushLayers("3.0.0", [layer]);
    const out = join(work.path, "pulled-inside");
    const result = await runPkg(["package", "pull", "--layout", layout, ref, "-o", out]);
    expect(result.code, result.stderr).toBe(0);
    expect(await readdir(join(out, "content", "bin"))).toEqual(["readme"]);
  });
});
