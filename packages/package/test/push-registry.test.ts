import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFile, readlink, stat } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { type RunningRegistry, startRegistry, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeSampleTree } from "./support/fixture-tree.js";
import { runPkg } from "./support/run-pkg.js";

const exec = promisify(execFile);

interface PushJson {
  repository: string;
  indexDigest: string;
  manifestDigest: string;
  tags: string[];
  layers: { mounted: number; uploaded: number; verified: number };
}

describe("pkg package push to a real registry", () => {
  let registry: RunningRegistry;
  let work: TempDir;
  let bundle: string;
  let tree: string;

  beforeAll(async () => {
    registry = await startRegistry();
    work = await tempDir("pkg-push-");
    tree = join(work.path, "tree");
    await writeSampleTree(tree);
    bundle = join(work.path, "out", "tool.tar.zst");
    const created = await runPkg(["package", "create", tree, "-o", bundle]);
    expect(created.code, created.stderr).toBe(0);
  });
  afterAll(async () => {
    await registry?.stop();
    await work?.remove();
  });

  async function push(ref: string, extra: string[] = []): Promise<PushJson> {
    const result = await runPkg([
      "package",
      "push",
      "-i",
      ref,
      "-p",
      "linux/amd64",
      "--format",
      "json",
      ...extra,
      bundle,
    ]);
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as PushJson;
  }

  it("publishes an index skopeo reads, and a second push uploads nothing", async () => {
    const ref = `${registry.host}/acme/tool:1.0.0_20250101120000`;
    const first = await push(ref);
    expect(first.layers).toEqual({ mounted: 0, uploaded: 1, verified: 0 });
    expect(first.tags).toEqual(["1.0.0_20250101120000"]);
    const { stdout } = await exec("skopeo", ["inspect", "--raw", "--tls-verify=false", `docker://${ref}`]);
    const index = JSON.parse(stdout);
    expect(index.mediaType).toBe("application/vnd.oci.image.index.v1+json");
    expect(index.manifests).toHaveLength(1);
    expect(index.manifests[0].platform).toEqual({ architecture: "amd64", os: "linux" });

    const second = await push(ref);
    expect(second.layers).toEqual({ mounted: 0, uploaded: 0, verified: 1 });
    expect(second.indexDigest).toBe(first.indexDigest);
  });

  it("refuses a reserved __pkg.* tag by name with exit 64, before anything is uploaded", async () => {
    const digest = `sha256:${createHash("sha256")
      .update(await readFile(bundle))
      .digest("hex")}`;
    for (const tag of ["__pkg.published", "__pkg.desc", "__pkg.next"]) {
      const result = await runPkg([
        "package",
        "push",
        "-i",
        `${registry.host}/acme/reserved:${tag}`,
        "-p",
        "linux/amd64",
        bundle,
      ]);
      expect(result.code, result.stderr).toBe(64);
      expect(result.stderr.trim()).toBe(
        `pkg: tag ${tag} is reserved: tags starting with __pkg. hold the tools' own documents, not packages`,
      );
    }
    const blob = await fetch(`${registry.url}/v2/acme/reserved/blobs/${digest}`, { method: "HEAD" });
    expect(blob.status).toBe(404);
    const tags = await fetch(`${registry.url}/v2/acme/reserved/tags/list`);
    expect(tags.status).toBe(404);
  });

  it("mounts a :from= layer across repositories instead of uploading it", async () => {
    await push(`${registry.host}/pip-packages/files/tool:sha`);
    const result = await runPkg([
      "package",
      "push",
      "-i",
      `${registry.host}/acme/other:1.0.0`,
      "-p",
      "linux/amd64",
      "--format",
      "json",
      `${bundle}:from=pip-packages/files/tool`,
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as PushJson).layers).toEqual({ mounted: 1, uploaded: 0, verified: 0 });
  });

  it("merges platforms into one index, +libc keys becoming os.features", async () => {
    const ref = `${registry.host}/acme/multi:3.0.0`;
    await push(ref);
    const musl = await runPkg([
      "package",
      "push",
      "-i",
      ref,
      "-p",
      "linux/amd64+libc.musl",
      "--format",
      "json",
      bundle,
    ]);
    expect(musl.code, musl.stderr).toBe(0);
    const again = await runPkg(["package", "push", "-i", ref, "-p", "linux/arm64", bundle]);
    expect(again.code, again.stderr).toBe(0);
    const { stdout } = await exec("skopeo", ["inspect", "--raw", "--tls-verify=false", `docker://${ref}`]);
    const platforms = JSON.parse(stdout).manifests.map((m: { platform: unknown }) => m.platform);
    expect(platforms).toEqual([
      { architecture: "amd64", os: "linux" },
      { architecture: "amd64", os: "linux", "os.features": ["libc.musl"] },
      { architecture: "arm64", os: "linux" },
    ]);
  });

  it("survives skopeo copy --all to an oci: layout and back, and pulls back byte-identical", async () => {
    const ref = `${registry.host}/acme/roundtrip:1.2.3`;
    await push(ref);
    const layout = join(work.path, "skopeo-layout");
    await exec("skopeo", [
      "copy",
      "--all",
      "--src-tls-verify=false",
      `docker://${ref}`,
      `oci:${layout}:1.2.3`,
    ]);
    const back = `${registry.host}/acme/roundtrip-back:1.2.3`;
    await exec("skopeo", [
      "copy",
      "--all",
      "--dest-tls-verify=false",
      `oci:${layout}:1.2.3`,
      `docker://${back}`,
    ]);
    const original = await exec("skopeo", ["inspect", "--raw", "--tls-verify=false", `docker://${ref}`]);
    const copied = await exec("skopeo", ["inspect", "--raw", "--tls-verify=false", `docker://${back}`]);
    expect(copied.stdout).toBe(original.stdout);

    const out = join(work.path, "pulled");
    const pulled = await runPkg(["package", "pull", back, "--platform", "linux/amd64", "-o", out]);
    expect(pulled.code, pulled.stderr).toBe(0);
    for (const file of ["bin/tool", "share/doc/README", "share/data.bin"]) {
      expect(await readFile(join(out, "content", file))).toEqual(await readFile(join(tree, file)));
    }
    expect((await stat(join(out, "content", "bin", "tool"))).mode & 0o777).toBe(0o755);
    expect(await readlink(join(out, "content", "bin", "tool-link"))).toBe("tool");
  });
});
