import { execFile, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { openLayout } from "../src/layout.js";
import { blobPath } from "../src/layout-files.js";
import { MediaType } from "../src/types.js";
import { bufferSource, imageIndex, imageManifest, readAll } from "./support/helpers.js";

const run = promisify(execFile);

let dir: TempDir;
beforeEach(async () => {
  dir = await tempDir("oci-layout-");
});
afterEach(async () => {
  await dir.remove();
});

/** Pushes a config and one layer and a manifest for them; returns the pieces. */
async function pushImage(root: string, repository: string, tag?: string, layerBytes = randomBytes(1000)) {
  const layout = openLayout(root, repository);
  const config = bufferSource(
    Buffer.from(
      JSON.stringify({ architecture: "amd64", os: "linux", rootfs: { type: "layers", diff_ids: [] } }),
    ),
  );
  const layer = bufferSource(layerBytes);
  await layout.pushBlob(config);
  await layout.pushBlob(layer);
  const bytes = imageManifest(config, [layer]);
  const descriptor = await layout.pushManifest(bytes, MediaType.ImageManifest, tag);
  return { layout, config, layer, bytes, descriptor };
}

describe("OCI image layout", () => {
  test("writes a standard layout and reads everything back verified", async () => {
    const { layout, layer, bytes, descriptor } = await pushImage(dir.path, "ns/tool", "1.0.0");
    expect(layout.dir).toBe(join(dir.path, "ns/tool"));
    expect(JSON.parse(await readFile(join(layout.dir, "oci-layout"), "utf8"))).toEqual({
      imageLayoutVersion: "1.0.0",
    });
    const index = JSON.parse(await readFile(join(layout.dir, "index.json"), "utf8"));
    expect(index.manifests).toEqual([
      { ...descriptor, annotations: { "org.opencontainers.image.ref.name": "1.0.0" } },
    ]);
    expect(await layout.listTags()).toEqual(["1.0.0"]);
    const byTag = await layout.fetchManifest("1.0.0");
    expect(byTag?.bytes.equals(bytes)).toBe(true);
    expect(byTag?.descriptor).toEqual(descriptor);
    expect((await layout.fetchManifest(descriptor.digest))?.descriptor.mediaType).toBe(
      MediaType.ImageManifest,
    );
    expect(await layout.fetchManifest("2.0.0")).toBeUndefined();
    expect(await layout.blobSize(layer.digest)).toBe(layer.size);
    expect((await readAll(await layout.fetchBlob(layer.digest, layer.size))).length).toBe(layer.size);
    expect(await layout.pushBlob(layer)).toBe("existed");
  });

  test("an absent layout reads as empty", async () => {
    const layout = openLayout(dir.path, "nothing/here");
    expect(await layout.listTags()).toEqual([]);
    expect(await layout.fetchManifest("latest")).toBeUndefined();
    expect(await layout.blobSize(`sha256:${"0".repeat(64)}`)).toBeUndefined();
    await expect(layout.fetchBlob(`sha256:${"0".repeat(64)}`)).rejects.toMatchObject({ exitCode: 65 });
  });

  test("moving a tag keeps one entry per tag; an untagged manifest is a blob only", async () => {
    const first = await pushImage(dir.path, "ns/tool", "latest");
    const second = await pushImage(dir.path, "ns/tool", "latest");
    const untagged = await pushImage(dir.path, "ns/tool");
    expect(await second.layout.listTags()).toEqual(["latest"]);
    expect((await second.layout.fetchManifest("latest"))?.descriptor.digest).toBe(second.descriptor.digest);
    expect(first.descriptor.digest).not.toBe(second.descriptor.digest);
    expect(await untagged.layout.blobSize(untagged.descriptor.digest)).toBe(untagged.bytes.length);
    await second.layout.untag("latest");
    expect(await second.layout.listTags()).toEqual([]);
  });

  test("refuses content that does not match its declared digest, storing nothing", async () => {
    const layout = openLayout(dir.path, "ns/tool");
    const good = bufferSource(randomBytes(100));
    const lying = { ...good, open: () => randomBytes(100) };
    await expect(layout.pushBlob(lying)).rejects.toMatchObject({ exitCode: 65 });
    expect(await layout.blobSize(good.digest)).toBeUndefined();
    const short = { ...good, size: 101, open: () => randomBytes(100) };
    await expect(layout.pushBlob(short)).rejects.toMatchObject({ exitCode: 65 });
  });

  test("detects a corrupted blob on read", async () => {
    const { layout, layer } = await pushImage(dir.path, "ns/tool", "1");
    await writeFile(blobPath(layout.dir, layer.digest), randomBytes(layer.size));
    const stream = await layout.fetchBlob(layer.digest);
    await expect(readAll(stream)).rejects.toMatchObject({ exitCode: 65 });
  });

  test("mounts a blob from a sibling repository under the same root", async () => {
    const { layer } = await pushImage(dir.path, "ns/a", "1");
    const other = openLayout(dir.path, "ns/b");
    expect(await other.pushBlob(bufferSource(randomBytes(10)), { mountFrom: "ns/a" })).toBe("uploaded");
    const fresh = { ...layer, open: () => Buffer.alloc(0) };
    expect(await other.pushBlob(fresh, { mountFrom: "ns/a" })).toBe("mounted");
    expect(await other.blobSize(layer.digest)).toBe(layer.size);
  });

  test("concurrent pushes of different tags into one layout keep every tag", async () => {
    const tags = Array.from({ length: 16 }, (_, i) => `v${i}`);
    await Promise.all(tags.map((tag) => pushImage(dir.path, "ns/tool", tag)));
    expect((await openLayout(dir.path, "ns/tool").listTags()).sort()).toEqual([...tags].sort());
  });

  test("a lock left behind by a dead process is broken", async () => {
    await pushImage(dir.path, "ns/tool", "first");
    const child = spawnSync("true");
    await writeFile(join(dir.path, "ns/tool/index.json.lock"), `${child.pid}\n${hostname()}\n`);
    await pushImage(dir.path, "ns/tool", "second");
    expect((await openLayout(dir.path, "ns/tool").listTags()).sort()).toEqual(["first", "second"]);
  });

  test("referrers are kept under the sha256-<hex> tag scheme", async () => {
    const { layout, descriptor, config } = await pushImage(dir.path, "ns/tool", "1");
    const signature = imageManifest(config, [], {
      artifactType: "application/vnd.example.signature",
      subject: descriptor,
      annotations: { "org.example": "yes" },
    });
    const sbom = imageManifest(config, [], {
      artifactType: "application/vnd.example.sbom",
      subject: descriptor,
    });
    const sig = await layout.pushManifest(signature, MediaType.ImageManifest);
    await layout.pushManifest(sbom, MediaType.ImageManifest);
    await layout.pushManifest(signature, MediaType.ImageManifest);
    const all = await layout.referrers(descriptor.digest);
    expect(all.map((d) => d.artifactType).sort()).toEqual([
      "application/vnd.example.sbom",
      "application/vnd.example.signature",
    ]);
    expect(await layout.referrers(descriptor.digest, "application/vnd.example.signature")).toEqual([
      { ...sig, artifactType: "application/vnd.example.signature", annotations: { "org.example": "yes" } },
    ]);
    expect(await layout.listTags()).toContain(`sha256-${descriptor.digest.slice(7)}`);
  });

  test("skopeo reads the layout and copies it to another", async () => {
    const { layout, bytes, descriptor } = await pushImage(dir.path, "ns/tool", "1.2.3");
    const index = imageIndex([{ ...descriptor, platform: { architecture: "amd64", os: "linux" } }]);
    await layout.pushManifest(index, MediaType.ImageIndex, "multi");
    const raw = await run("skopeo", ["inspect", "--raw", `oci:${layout.dir}:1.2.3`]);
    expect(Buffer.from(raw.stdout).equals(bytes)).toBe(true);
    const copyDir = join(dir.path, "copy");
    // without --preserve-digests skopeo would gzip the uncompressed test layer, changing digests
    await run("skopeo", [
      "copy",
      "--all",
      "--preserve-digests",
      `oci:${layout.dir}:multi`,
      `oci:${copyDir}:again`,
    ]);
    const copied = await run("skopeo", ["inspect", "--raw", `oci:${copyDir}:again`]);
    expect(Buffer.from(copied.stdout).equals(index)).toBe(true);
    // and what skopeo writes, this client reads
    const back = openLayout(dir.path, "copy");
    expect((await back.fetchManifest("again"))?.bytes.equals(index)).toBe(true);
  });
});
