import { execFile } from "node:child_process";
import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLocalLayer } from "../push/layer-args.js";
import { createBundle } from "./create.js";
import { sidecarPath, trustedSidecarDigest, writeDigestSidecar } from "./digest-sidecar.js";

const exec = promisify(execFile);
let work: TempDir;

beforeAll(async () => {
  work = await tempDir("pkg-sidecar-");
  await mkdir(join(work.path, "tree"));
  await writeFile(join(work.path, "tree", "file.txt"), "content\n");
});
afterAll(async () => {
  await work?.remove();
});

async function freshBundle(name: string): Promise<{ path: string; digest: string }> {
  const path = join(work.path, name);
  const { digest } = await createBundle({ sourceDir: join(work.path, "tree"), output: path });
  return { path, digest };
}

describe("the .digest.json sidecar of a bundle", () => {
  it("is written by createBundle and records the digest sha256sum computes", async () => {
    const bundle = await freshBundle("a.tar.zst");
    const { stdout } = await exec("sha256sum", [bundle.path]);
    expect(await trustedSidecarDigest(bundle.path)).toBe(`sha256:${stdout.split(" ")[0]}`);
    expect(bundle.digest).toBe(`sha256:${stdout.split(" ")[0]}`);
  });

  it("lets push take the digest without hashing; the upload still checks the file is unchanged", async () => {
    const bundle = await freshBundle("b.tar.zst");
    const layer = await readLocalLayer({ path: bundle.path });
    expect(layer.source.digest).toBe(bundle.digest);
    expect(await layer.source.unchanged?.()).toBe(true);
    await appendFile(bundle.path, "x");
    expect(await layer.source.unchanged?.()).toBe(false);
  });

  it("is the digest push takes, without hashing the file itself", async () => {
    const bundle = await freshBundle("e.tar.zst");
    const vouched = `sha256:${"0".repeat(64)}`;
    await writeDigestSidecar(bundle.path, vouched);
    expect((await readLocalLayer({ path: bundle.path })).source.digest).toBe(vouched);
  });

  it("is not trusted once the bundle changed after it", async () => {
    const bundle = await freshBundle("c.tar.zst");
    await appendFile(bundle.path, "tampered");
    expect(await trustedSidecarDigest(bundle.path)).toBeUndefined();
    const layer = await readLocalLayer({ path: bundle.path });
    expect(layer.source.digest).not.toBe(bundle.digest);
  });

  it("is not trusted when it describes another file or is malformed", async () => {
    const bundle = await freshBundle("d.tar.zst");
    const other = await freshBundle("other.tar.zst");
    await writeFile(sidecarPath(bundle.path), await readFile(sidecarPath(other.path)));
    expect(await trustedSidecarDigest(bundle.path)).toBeUndefined();
    await writeFile(sidecarPath(bundle.path), "not json\n");
    expect(await trustedSidecarDigest(bundle.path)).toBeUndefined();
    await writeDigestSidecar(bundle.path, bundle.digest);
    expect(await trustedSidecarDigest(bundle.path)).toBe(bundle.digest);
  });

  it("stays out of a bundle written inside its own source tree", async () => {
    const inside = join(work.path, "tree", "self.tar.zst");
    await createBundle({ sourceDir: join(work.path, "tree"), output: inside });
    await createBundle({ sourceDir: join(work.path, "tree"), output: inside });
    const { stdout } = await exec("tar", ["--zstd", "-tf", inside]);
    expect(stdout.split("\n").filter(Boolean).sort()).toEqual(["file.txt"]);
  });
});
