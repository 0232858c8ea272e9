import { join } from "node:path";
import { MediaType, openLayout } from "@pkg/oci";
import { type RunningRegistry, startRegistry, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeSampleTree } from "./support/fixture-tree.js";
import { runPkg } from "./support/run-pkg.js";

let registry: RunningRegistry;
let work: TempDir;
let bundle: string;

beforeAll(async () => {
  registry = await startRegistry();
  work = await tempDir("pkg-tags-");
  const tree = join(work.path, "tree");
  await writeSampleTree(tree);
  bundle = join(work.path, "tool.tar.zst");
  expect((await runPkg(["package", "create", tree, "-o", bundle])).code).toBe(0);
});
afterAll(async () => {
  await registry?.stop();
  await work?.remove();
});

describe("pkg package tags on a registry", () => {
  it("names a repository that does not exist in one line, exit 65", async () => {
    for (const format of ["text", "json"]) {
      const result = await runPkg(["package", "tags", `${registry.host}/acme/nothing`, "--format", format]);
      expect(result.code).toBe(65);
      expect(result.stderr).toBe(`pkg: ${registry.host}/acme/nothing: no such repository\n`);
      expect(result.stdout).toBe("");
    }
  });

  it("says no tags for a repository whose tags are all gone, exit 0", async () => {
    const ref = `${registry.host}/acme/emptied:1.0.0`;
    const pushed = await runPkg([
      "package",
      "push",
      "-i",
      ref,
      "-p",
      "linux/amd64",
      "--format",
      "json",
      bundle,
    ]);
    expect(pushed.code, pushed.stderr).toBe(0);
    const { indexDigest } = JSON.parse(pushed.stdout) as { indexDigest: string };
    const deleted = await fetch(`${registry.url}/v2/acme/emptied/manifests/${indexDigest}`, {
      method: "DELETE",
    });
    expect(deleted.status).toBe(202);

    const text = await runPkg(["package", "tags", `${registry.host}/acme/emptied`]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toBe(`${registry.host}/acme/emptied: no tags\n`);
    expect(text.stdout).toBe("");
    const json = await runPkg(["package", "tags", `${registry.host}/acme/emptied`, "--format", "json"]);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).toBe("");
    expect(JSON.parse(json.stdout)).toEqual([]);
  });

  it("lists the tags of a repository that has some", async () => {
    const pushed = await runPkg([
      "package",
      "push",
      "-i",
      `${registry.host}/acme/full:2.0.0`,
      "-p",
      "linux/arm64",
      bundle,
    ]);
    expect(pushed.code, pushed.stderr).toBe(0);
    const result = await runPkg(["package", "tags", `${registry.host}/acme/full`]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^2\.0\.0 {2}sha256:[0-9a-f]{12} {2}linux\/arm64\n$/);
    expect(result.stderr).toBe("");
  });
});

describe("pkg package tags on an OCI layout", () => {
  it("names a repository the layout does not hold, exit 65", async () => {
    const layout = join(work.path, "layout");
    const pushed = await runPkg([
      "package",
      "push",
      "--layout",
      layout,
      "-i",
      "demo.test/acme/tool:1.0.0",
      "-p",
      "linux/amd64",
      bundle,
    ]);
    expect(pushed.code, pushed.stderr).toBe(0);
    // acme/ is a directory of the layout root, but no repository
    for (const repository of ["acme/nothing", "acme", "other/tool"]) {
      const result = await runPkg(["package", "tags", "--layout", layout, `demo.test/${repository}`]);
      expect(result.code).toBe(65);
      expect(result.stderr).toBe(`pkg: layout:${join(layout, repository)}: no such repository\n`);
      expect(result.stdout).toBe("");
    }
  });

  it("says no tags for a layout repository without any, exit 0", async () => {
    const layout = join(work.path, "layout-empty");
    // a manifest stored by digest alone: the repository exists, with no tag
    await openLayout(layout, "acme/empty").pushManifest(Buffer.from("{}"), MediaType.ImageManifest);
    const result = await runPkg(["package", "tags", "--layout", layout, "demo.test/acme/empty"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe(`layout:${join(layout, "acme/empty")}: no tags\n`);
    expect(result.stdout).toBe("");
  });
});
