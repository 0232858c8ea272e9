import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const exec = promisify(execFile);
const demo = fileURLToPath(new URL("../../../scripts/demo.sh", import.meta.url));
let out: TempDir;

beforeAll(async () => {
  out = await tempDir("pkg-demo-");
});
afterAll(async () => {
  await out?.remove();
});

describe("the README's main job (npm run demo)", () => {
  it("mirrors two upstream versions with pkg-mirror, latest pulls back the newest, the index and its catalog site hold the package", async () => {
    const { stdout, stderr } = await exec("bash", [demo], {
      env: { ...process.env, PKG_DEMO_DIR: out.path },
    });
    expect(stderr).toContain("package sync ");
    expect(stdout).toContain("4 published, 0 skipped, 0 failed");
    expect(stdout).toContain("hello from a pkg package");
    expect(stderr).toContain("$ cat ");
    expect(await readFile(join(out.path, "pulled/content/share/hello/VERSION"), "utf8")).toBe("1.1.0\n");
    const rawIndex = (tag: string) =>
      exec("skopeo", ["inspect", "--raw", `oci:${join(out.path, "layout/examples/hello")}:${tag}`]);
    const latest = await rawIndex("latest");
    const v110 = await rawIndex("1.1.0");
    expect(latest.stdout).toBe(v110.stdout);
    expect(JSON.parse(latest.stdout).manifests).toHaveLength(2);
    const v100 = await rawIndex("1.0.0");
    expect(JSON.parse(v100.stdout).manifests).toHaveLength(2);
    expect(v100.stdout).not.toBe(v110.stdout);

    // announced into a local index, every tag of the layout, and the catalog built from it
    expect(stderr).toContain("package pipeline announce ");
    const root = JSON.parse(await readFile(join(out.path, "index/p/examples/hello.json"), "utf8"));
    expect(root.repository).toBe("oci://demo.local/examples/hello");
    expect(Object.keys(root.tags)).toEqual(expect.arrayContaining(["1.0.0", "1.1.0", "latest"]));
    expect(root.desc.title).toBeTruthy();
    const page = await readFile(join(out.path, "site/examples/hello/index.html"), "utf8");
    expect(page).toContain("examples/hello");
    expect(await readFile(join(out.path, "site/index.html"), "utf8")).toContain("examples/hello");
    expect(stderr).toContain(`file://${out.path}/site/index.html`);
    expect(stderr).toContain(`npx pkg-catalog dev ${out.path}/catalog.config.json`);
  });
});
