import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeSampleTree } from "./support/fixture-tree.js";
import { runPkg } from "./support/run-pkg.js";

const exec = promisify(execFile);
const ref = "demo.test/acme/tool";

let work: TempDir;
let layout: string;
const bundles = new Map<string, string>();

beforeAll(async () => {
  work = await tempDir("pkg-layout-");
  layout = join(work.path, "layout");
  for (const version of ["1.0.0", "1.0.1", "1.1.0", "2.0.0-rc1"]) {
    const tree = join(work.path, `tree-${version}`);
    await writeSampleTree(tree, version);
    const bundle = join(work.path, `${version}.tar.zst`);
    const created = await runPkg(["package", "create", tree, "-o", bundle]);
    expect(created.code, created.stderr).toBe(0);
    bundles.set(version, bundle);
  }
});
afterAll(async () => {
  await work?.remove();
});

async function push(
  version: string,
  platform = "linux/amd64",
): Promise<{ manifestDigest: string; tags: string[] }> {
  const result = await runPkg([
    "package",
    "push",
    "--layout",
    layout,
    "-i",
    `${ref}:${version}_20250101120000`,
    "-p",
    platform,
    "--cascade",
    "--annotation",
    "org.opencontainers.image.source=https://forge.test/acme/mirror",
    "--format",
    "json",
    bundles.get(version) ?? "",
  ]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

async function tagTable(): Promise<Record<string, string[]>> {
  const result = await runPkg(["package", "tags", "--layout", layout, ref, "--format", "json"]);
  expect(result.code, result.stderr).toBe(0);
  const rows = JSON.parse(result.stdout) as Array<{ tag: string; digest: string; platforms: string[] }>;
  return Object.fromEntries(rows.map((r) => [r.tag, r.platforms]));
}

async function entryDigest(tag: string, platform = "amd64"): Promise<string | undefined> {
  const { stdout } = await exec("skopeo", ["inspect", "--raw", `oci:${join(layout, "acme/tool")}:${tag}`]);
  const index = JSON.parse(stdout) as {
    manifests: Array<{ digest: string; platform: { architecture: string } }>;
    annotations?: Record<string, string>;
  };
  expect(index.annotations?.["org.opencontainers.image.source"]).toBe("https://forge.test/acme/mirror");
  return index.manifests.find((m) => m.platform.architecture === platform)?.digest;
}

describe("publishing into an OCI image layout with the cascade", () => {
  it("moves rolling tags only forward, whatever the publish order", async () => {
    const v110 = await push("1.1.0");
    expect(v110.tags).toEqual(["1.1.0_20250101120000", "1.1.0", "1.1", "1", "latest"]);
    const v100 = await push("1.0.0");
    expect(v100.tags).toEqual(["1.0.0_20250101120000", "1.0.0", "1.0"]);
    const v101 = await push("1.0.1");
    expect(v101.tags).toEqual(["1.0.1_20250101120000", "1.0.1", "1.0"]);
    const rc = await push("2.0.0-rc1");
    expect(rc.tags).not.toContain("latest");

    expect(await entryDigest("latest")).toBe(v110.manifestDigest);
    expect(await entryDigest("1")).toBe(v110.manifestDigest);
    expect(await entryDigest("1.0")).toBe(v101.manifestDigest);
    expect(await entryDigest("1.0.0")).toBe(v100.manifestDigest);
  });

  it("lets an older version fill a platform the newer one lacks", async () => {
    const arm = await push("1.0.1", "linux/arm64");
    expect(arm.tags).toContain("latest");
    expect(await entryDigest("latest", "arm64")).toBe(arm.manifestDigest);
    expect((await tagTable()).latest).toEqual(["linux/amd64", "linux/arm64"]);
  });

  it("describes the repository and pulls a tag back from the layout", async () => {
    const readme = join(work.path, "README.md");
    await import("node:fs/promises").then((fs) => fs.writeFile(readme, "# tool\n"));
    const described = await runPkg([
      "package",
      "describe",
      "--layout",
      layout,
      ref,
      "--readme",
      readme,
      "--format",
      "json",
    ]);
    expect(described.code, described.stderr).toBe(0);
    // skopeo's oci: transport refuses tags starting with "_", so the layout is read directly
    const layoutIndex = JSON.parse(await readFile(join(layout, "acme/tool/index.json"), "utf8")) as {
      manifests: Array<{ digest: string; annotations?: Record<string, string> }>;
    };
    const entry = layoutIndex.manifests.find(
      (m) => m.annotations?.["org.opencontainers.image.ref.name"] === "__pkg.desc",
    );
    const blob = join(layout, "acme/tool/blobs/sha256", (entry?.digest ?? "").replace("sha256:", ""));
    const manifest = JSON.parse(await readFile(blob, "utf8")) as {
      artifactType: string;
      layers: Array<{ mediaType: string }>;
    };
    expect(manifest.artifactType).toBe("application/vnd.pkg.description.v1");
    expect(manifest.layers.map((l) => l.mediaType)).toEqual(["text/markdown"]);

    const out = join(work.path, "pulled");
    const pullArgs = [
      "package",
      "pull",
      "--layout",
      layout,
      `${ref}:1.0`,
      "--platform",
      "linux/amd64",
      "-o",
      out,
    ];
    const pulled = await runPkg(pullArgs);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(await readFile(join(out, "content", "share", "doc", "README"), "utf8")).toContain("sample 1.0.1");
    const again = await runPkg(pullArgs);
    expect(again.code).toBe(64);
  });

  it("refuses a platform the tag does not hold with a line naming what it has", async () => {
    const result = await runPkg([
      "package",
      "pull",
      "--layout",
      layout,
      `${ref}:1.1.0`,
      "--platform",
      "linux/riscv64",
      "-o",
      join(work.path, "none"),
    ]);
    expect(result.code).toBe(65);
    expect(result.stderr).toMatch(/linux\/amd64/);
  });
});
