import { mkdir, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnCollect, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeSampleTree } from "./support/fixture-tree.js";
import { runPkg } from "./support/run-pkg.js";

const bin = fileURLToPath(new URL("../bin/pkg.js", import.meta.url));
const ref = "demo.test/acme/tool:1.0.0";

let work: TempDir;
let layout: string;

beforeAll(async () => {
  work = await tempDir("pkg-pull-out-");
  layout = join(work.path, "layout");
  const tree = join(work.path, "tree");
  await writeSampleTree(tree);
  const bundle = join(work.path, "tool.tar.zst");
  expect((await runPkg(["package", "create", tree, "-o", bundle])).code).toBe(0);
  const pushed = await runPkg([
    "package",
    "push",
    "--layout",
    layout,
    "-i",
    ref,
    "-p",
    "linux/amd64",
    bundle,
  ]);
  expect(pushed.code, pushed.stderr).toBe(0);
});
afterAll(async () => {
  await work?.remove();
});

/** `pkg` under umask 022, whatever the test runner's own umask. */
function runPkgUmask022(args: string[]) {
  return spawnCollect("sh", ["-c", 'umask 022 && exec "$@"', "sh", process.execPath, bin, ...args], {
    env: { ...process.env, HOME: "/nonexistent-pkg-test-home" },
  });
}

describe("pkg package pull -o OUT", () => {
  it("creates OUT honouring the umask, like any directory", async () => {
    const out = join(work.path, "parent", "out");
    const result = await runPkgUmask022(["package", "pull", "--layout", layout, ref, "-o", out]);
    expect(result.code, result.stderr).toBe(0);
    expect((await stat(out)).mode & 0o777).toBe(0o755);
    expect((await stat(join(out, "content"))).mode & 0o777).toBe(0o755);
    expect((await stat(join(work.path, "parent"))).mode & 0o777).toBe(0o755);
  });

  it("fills an empty OUT that exists, and leaves no staging directory beside it", async () => {
    const out = join(work.path, "empty");
    await mkdir(out);
    const result = await runPkgUmask022(["package", "pull", "--layout", layout, ref, "-o", out]);
    expect(result.code, result.stderr).toBe(0);
    expect((await stat(out)).mode & 0o777).toBe(0o755);
    expect((await readdir(work.path)).filter((name) => name.startsWith("."))).toEqual([]);
  });
});
