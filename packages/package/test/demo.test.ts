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
  it("mirrors two upstream versions with pkg-mirror, and latest pulls back the newest", async () => {
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
  });
});
