import { join } from "node:path";
import { MediaType, openLayout } from "@pkg/oci";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeSampleTree } from "./support/fixture-tree.js";
import { runPkg } from "./support/run-pkg.js";

let work: TempDir;
let layout: string;
let bundle: string;

beforeAll(async () => {
  work = await tempDir("pkg-corrupt-index-");
  layout = join(work.path, "layout");
  const tree = join(work.path, "tree");
  await writeSampleTree(tree);
  bundle = join(work.path, "tool.tar.zst");
  expect((await runPkg(["package", "create", tree, "-o", bundle])).code).toBe(0);
  // a tag whose bytes are not JSON at all, as a broken writer or a bad copy leaves them
  const target = openLayout(layout, "tools/broken");
  await target.pushManifest(
    Buffer.from('{"schemaVersion":2,"manifests":[{"dig'),
    MediaType.ImageIndex,
    "1.0.0",
  );
});
afterAll(async () => {
  await work?.remove();
});

describe("a corrupt image index in the repository", () => {
  it.each([
    ["pull", ["pull", "--layout", "LAYOUT", "tools/broken:1.0.0", "-o", "OUT"]],
    ["tags", ["tags", "--layout", "LAYOUT", "tools/broken"]],
    [
      "push into it",
      ["push", "--layout", "LAYOUT", "-i", "tools/broken:1.0.0", "-p", "linux/amd64", "BUNDLE"],
    ],
    [
      "push --cascade of an older version, which reads it",
      [
        "push",
        "--layout",
        "LAYOUT",
        "-i",
        "tools/broken:0.9.0_20250101120000",
        "-p",
        "linux/amd64",
        "--cascade",
        "BUNDLE",
      ],
    ],
  ])("%s: exit 65 naming the tag, never an internal error", async (_what, args) => {
    const filled = args.map((a) =>
      a === "LAYOUT" ? layout : a === "OUT" ? join(work.path, "out") : a === "BUNDLE" ? bundle : a,
    );
    const result = await runPkg(["package", ...filled]);
    expect(result.code, result.stderr).toBe(65);
    expect(result.stderr).toMatch(/tools\/broken:1\.0\.0 is not JSON/);
    expect(result.stderr).not.toMatch(/internal error/);
  });
});
