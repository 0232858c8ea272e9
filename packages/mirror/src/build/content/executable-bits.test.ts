import { lstat, stat } from "node:fs/promises";
import { join } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { metadataWith, writeTree } from "../../../test/support/tree-fixture.js";
import { applyExecutableBits } from "./executable-bits.js";

describe("applyExecutableBits", () => {
  let dir: TempDir;
  beforeEach(async () => {
    dir = await tempDir("exec-bits-");
  });
  afterEach(async () => {
    await dir.remove();
  });

  const modeOf = async (path: string) => (await lstat(join(dir.path, path))).mode & 0o7777;

  // path, mode before, declared?, mode after
  const rules: Array<[string, number, boolean, number]> = [
    ["bin/tool", 0o644, true, 0o755],
    ["bin/secret", 0o600, true, 0o755],
    ["bin/readonly", 0o444, true, 0o755],
    ["bin/owner-only", 0o744, true, 0o744],
    ["bin/group-only", 0o610, true, 0o610],
    ["bin/other-only", 0o601, true, 0o601],
    ["bin/setuid-kept", 0o4711, true, 0o4711],
    ["bin/wide", 0o777, true, 0o777],
    ["bin/README", 0o644, false, 0o644],
    ["bin/plain", 0o600, false, 0o600],
    ["share/deep/nested/helper", 0o644, true, 0o755],
  ];

  test.each(rules)("%s: %o, declared %s -> %o", async (path, before, declared, after) => {
    const name = path.split("/").at(-1) ?? path;
    await writeTree(dir.path, { [path]: { file: "x", mode: before } });
    const changed = await applyExecutableBits(dir.path, metadataWith([], declared ? [name] : ["other"]));
    expect(await modeOf(path)).toBe(after);
    expect(changed).toEqual(after === before ? [] : [path]);
  });

  test("every file of a declared name gets the bit, wherever it sits; the result is sorted", async () => {
    await writeTree(dir.path, {
      "z/tool": { file: "1", mode: 0o644 },
      "a/tool": { file: "2", mode: 0o644 },
      tool: { file: "3", mode: 0o644 },
    });
    expect(await applyExecutableBits(dir.path, metadataWith([], ["tool"]))).toEqual([
      "a/tool",
      "tool",
      "z/tool",
    ]);
  });

  test("symlinks are skipped: neither the link nor its target changes", async () => {
    await writeTree(dir.path, {
      "data/target": { file: "x", mode: 0o644 },
      "bin/tool": { symlink: "../data/target" },
    });
    expect(await applyExecutableBits(dir.path, metadataWith([], ["tool"]))).toEqual([]);
    expect((await stat(join(dir.path, "bin/tool"))).mode & 0o777).toBe(0o644);
    expect((await lstat(join(dir.path, "bin/tool"))).isSymbolicLink()).toBe(true);
  });

  test("a directory with a declared name is untouched, and its contents are still visited", async () => {
    await writeTree(dir.path, { tool: { dir: true }, "tool/tool": { file: "x", mode: 0o600 } });
    const dirMode = await modeOf("tool");
    expect(await applyExecutableBits(dir.path, metadataWith([], ["tool"]))).toEqual(["tool/tool"]);
    expect(await modeOf("tool")).toBe(dirMode);
  });

  test("a declared name the tree lacks is no error; no binaries declared changes nothing", async () => {
    await writeTree(dir.path, { "bin/tool": { file: "x", mode: 0o644 } });
    expect(await applyExecutableBits(dir.path, metadataWith([], ["missing"]))).toEqual([]);
    expect(await applyExecutableBits(dir.path, metadataWith([]))).toEqual([]);
    expect(await modeOf("bin/tool")).toBe(0o644);
  });

  test("a name matches the whole file name, not a prefix or a path", async () => {
    await writeTree(dir.path, {
      "bin/tool.sh": { file: "x", mode: 0o644 },
      "bin/toolbox": { file: "x", mode: 0o644 },
    });
    expect(await applyExecutableBits(dir.path, metadataWith([], ["tool", "bin/toolbox"]))).toEqual([]);
  });
});
