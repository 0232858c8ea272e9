import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  type FaultProxy,
  type RunningRegistry,
  startFaultProxy,
  startRegistry,
  type TempDir,
  tempDir,
} from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sha256Digest } from "../src/digest.js";
import { MAX_CHUNK_SIZE } from "../src/limits.js";
import { openRegistry, type RegistryTargetOptions } from "../src/registry.js";
import { MediaType } from "../src/types.js";
import { bufferSource, imageIndex, imageManifest, readAll, withoutSchemeProbe } from "./support/helpers.js";

const run = promisify(execFile);
const MiB = 1024 * 1024;
const fast: RegistryTargetOptions = { retry: { firstDelayMs: 10 } };

let registry: RunningRegistry;
let proxy: FaultProxy;
let scratch: TempDir;

beforeAll(async () => {
  registry = await startRegistry({ auth: "none" });
  proxy = await startFaultProxy(registry.url);
  scratch = await tempDir("oci-registry-");
});
afterAll(async () => {
  await proxy?.stop();
  await registry?.stop();
  await scratch?.remove();
});

/** The proxy's log from `from` on, as `METHOD path` lines with the body size of uploads. */
function requestsSince(from: number) {
  return withoutSchemeProbe(proxy.requests.slice(from)).map((r) => ({
    method: r.method,
    path: r.url.split("?")[0] ?? "",
    query: new URL(r.url, "http://x").searchParams,
    length: Number(r.headers["content-length"] ?? 0),
    range: r.headers["content-range"],
    status: r.status,
  }));
}

const target = (repository: string, options: RegistryTargetOptions = {}) =>
  openRegistry(`${proxy.host}/${repository}`, { ...fast, ...options });

describe("blobs", () => {
  test("a small blob goes up in one PUT, is found by HEAD, reads back verified, and is not sent twice", async () => {
    const repo = target("blobs/small");
    const blob = bufferSource(randomBytes(MiB));
    const start = proxy.requests.length;
    expect(await repo.blobSize(blob.digest)).toBeUndefined();
    expect(await repo.pushBlob(blob)).toBe("uploaded");
    const log = requestsSince(start);
    expect(log.map((r) => r.method)).toEqual(["HEAD", "HEAD", "POST", "PUT"]);
    expect(log[3]?.length).toBe(MiB);
    expect(log[3]?.query.get("digest")).toBe(blob.digest);
    expect(await repo.blobSize(blob.digest)).toBe(MiB);
    expect((await readAll(await repo.fetchBlob(blob.digest, blob.size))).equals(blob.open())).toBe(true);
    const again = proxy.requests.length;
    expect(await repo.pushBlob(blob)).toBe("existed");
    expect(requestsSince(again).map((r) => r.method)).toEqual(["HEAD"]);
  });

  /** A blob of `size` random bytes, read from a file in 64 KiB pieces. */
  async function fileBlob(name: string, size: number) {
    const bytes = randomBytes(size);
    const path = join(scratch.path, name);
    await writeFile(path, bytes);
    return { ...bufferSource(bytes), open: () => createReadStream(path, { highWaterMark: 64 * 1024 }) };
  }

  test("a 10 MiB blob goes up in one streamed PATCH from a file, then a PUT", async () => {
    const repo = target("blobs/large");
    const blob = await fileBlob("large.bin", 10 * MiB + 123);
    const start = proxy.requests.length;
    expect(await repo.pushBlob(blob)).toBe("uploaded");
    const log = requestsSince(start);
    expect(log.map((r) => `${r.method} ${r.status}`)).toEqual([
      "HEAD 404",
      "POST 202",
      "PATCH 202",
      "PUT 201",
    ]);
    expect(log[2]?.length).toBe(blob.size);
    expect(log[2]?.range).toBeUndefined();
    expect(log[3]?.length).toBe(0);
    expect(log[3]?.query.get("digest")).toBe(blob.digest);
    expect(sha256Digest(await readAll(await repo.fetchBlob(blob.digest)))).toBe(blob.digest);
  });

  test("uploadMode chunked, or PKG_REGISTRY_UPLOAD=chunked, sends PATCH chunks of at most 3 MiB", async () => {
    const modes: RegistryTargetOptions[] = [
      { uploadMode: "chunked" },
      { env: { PKG_REGISTRY_UPLOAD: "chunked" } },
    ];
    for (const [i, options] of modes.entries()) {
      const repo = target("blobs/chunked", options);
      const blob = await fileBlob(`chunked-${i}.bin`, 10 * MiB + 123);
      const start = proxy.requests.length;
      expect(await repo.pushBlob(blob)).toBe("uploaded");
      const patches = requestsSince(start).filter((r) => r.method === "PATCH");
      expect(patches.every((p) => p.length > 0 && p.length <= MAX_CHUNK_SIZE && p.status === 202)).toBe(true);
      expect(patches.map((p) => p.range)).toEqual([
        `0-${3 * MiB - 1}`,
        `${3 * MiB}-${6 * MiB - 1}`,
        `${6 * MiB}-${9 * MiB - 1}`,
        `${9 * MiB}-${blob.size - 1}`,
      ]);
      const put = requestsSince(start).find((r) => r.method === "PUT");
      expect(put?.length).toBe(0);
      expect(sha256Digest(await readAll(await repo.fetchBlob(blob.digest)))).toBe(blob.digest);
    }
    expect(() => target("blobs/chunked", { env: { PKG_REGISTRY_UPLOAD: "huge" } })).toThrow(
      expect.objectContaining({ exitCode: 64 }),
    );
  });

  test("content not as declared commits nothing (exit 65), streamed or in chunks", async () => {
    const large = 4 * MiB + 10;
    const other = await fileBlob("other.bin", large);
    const declared = (size: number) => bufferSource(randomBytes(size));
    const sources = [
      { ...declared(1000), open: () => randomBytes(1000) },
      { ...declared(11), open: () => randomBytes(10) },
      { ...declared(large), open: () => randomBytes(large) },
      { ...declared(large), open: other.open },
      { ...declared(large), open: () => randomBytes(large - 10) },
      { ...declared(large - 10), open: () => randomBytes(large) },
    ];
    const streamed = target("blobs/lying");
    for (const repo of [streamed, target("blobs/lying", { uploadMode: "chunked" })]) {
      for (const source of sources) {
        const start = proxy.requests.length;
        const failure = repo.pushBlob(source);
        await expect(failure).rejects.toMatchObject({ exitCode: 65 });
        await expect(failure).rejects.toThrow(/(hashes to sha256:|shorter|longer).*nothing committed/);
        const log = requestsSince(start);
        expect(log.some((r) => r.method === "PUT")).toBe(false);
        if (repo === streamed) expect(log.filter((r) => r.method === "PATCH").length).toBeLessThanOrEqual(1);
        expect(await repo.blobSize(source.digest)).toBeUndefined();
      }
    }
    expect(streamed.client.chunkedUploads).toBe(false);
  });

  test("a source that vouches for its storage is not hashed again, and a change commits nothing", async () => {
    const bytes = randomBytes(4 * MiB + 10);
    let vouch = true;
    const source = { ...bufferSource(bytes), unchanged: async () => vouch };
    const repo = target("blobs/vouching");
    vouch = false;
    let start = proxy.requests.length;
    const failure = repo.pushBlob(source);
    await expect(failure).rejects.toMatchObject({ exitCode: 65 });
    await expect(failure).rejects.toThrow(/changed while it was being sent; nothing committed/);
    expect(requestsSince(start).some((r) => r.method === "PUT")).toBe(false);
    expect(await repo.blobSize(source.digest)).toBeUndefined();

    vouch = true;
    start = proxy.requests.length;
    expect(await repo.pushBlob(source)).toBe("uploaded");
    expect(requestsSince(start).filter((r) => r.method === "PATCH")).toHaveLength(1);
    expect(sha256Digest(await readAll(await repo.fetchBlob(source.digest)))).toBe(source.digest);
  });

  test("cross-repository mount, and a mount miss continuing in the session it opened", async () => {
    const blob = bufferSource(randomBytes(5000));
    await target("mount/source").pushBlob(blob);
    const destination = target("mount/destination");
    let start = proxy.requests.length;
    expect(await destination.pushBlob(blob, { mountFrom: "mount/source" })).toBe("mounted");
    expect(
      requestsSince(start)
        .filter((r) => r.method === "POST")[0]
        ?.query.get("from"),
    ).toBe("mount/source");
    expect(await destination.blobSize(blob.digest)).toBe(5000);

    const missing = bufferSource(randomBytes(5000));
    start = proxy.requests.length;
    expect(await destination.pushBlob(missing, { mountFrom: "mount/source" })).toBe("uploaded");
    const log = requestsSince(start);
    expect(log.map((r) => `${r.method} ${r.status}`)).toEqual(["HEAD 404", "POST 202", "PUT 201"]);
    expect(await destination.blobSize(missing.digest)).toBe(5000);
  });

  test("a corrupted stored blob is detected on read", async () => {
    const repo = target("blobs/corrupt");
    const blob = bufferSource(randomBytes(4096));
    await repo.pushBlob(blob);
    const hex = blob.digest.slice("sha256:".length);
    const data = join(registry.storageDir, "docker/registry/v2/blobs/sha256", hex.slice(0, 2), hex, "data");
    await writeFile(data, randomBytes(4096));
    await expect(readAll(await repo.fetchBlob(blob.digest))).rejects.toMatchObject({ exitCode: 65 });
    await expect(repo.fetchBlob(`sha256:${"0".repeat(64)}`)).rejects.toMatchObject({ exitCode: 65 });
  });
});

describe("manifests, tags, referrers", () => {
  async function pushImage(repository: string, tag?: string) {
    const repo = target(repository);
    const config = bufferSource(Buffer.from(JSON.stringify({ architecture: "amd64", os: "linux" })));
    const layer = bufferSource(randomBytes(300));
    await repo.pushBlob(config);
    await repo.pushBlob(layer);
    const bytes = imageManifest(config, [layer]);
    return { repo, config, bytes, descriptor: await repo.pushManifest(bytes, MediaType.ImageManifest, tag) };
  }

  test("manifest and index by tag and by digest, exact bytes; skopeo reads them", async () => {
    const { repo, bytes, descriptor } = await pushImage("man/tool", "1.0.0");
    expect((await repo.fetchManifest("1.0.0"))?.bytes.equals(bytes)).toBe(true);
    expect((await repo.fetchManifest(descriptor.digest))?.descriptor).toEqual(descriptor);
    const index = imageIndex([{ ...descriptor, platform: { architecture: "amd64", os: "linux" } }]);
    const indexDescriptor = await repo.pushManifest(index, MediaType.ImageIndex, "latest");
    const fetched = await repo.fetchManifest("latest");
    expect(fetched?.descriptor).toEqual(indexDescriptor);
    expect(fetched?.bytes.equals(index)).toBe(true);
    expect(await repo.fetchManifest("absent")).toBeUndefined();
    expect(await repo.fetchManifest(`sha256:${"1".repeat(64)}`)).toBeUndefined();
    const raw = await run("skopeo", [
      "inspect",
      "--raw",
      "--tls-verify=false",
      `docker://${registry.host}/man/tool:latest`,
    ]);
    expect(Buffer.from(raw.stdout).equals(index)).toBe(true);
  });

  test("a manifest naming a missing blob is refused with exit 65", async () => {
    const repo = target("man/broken");
    const config = bufferSource(Buffer.from("{}"));
    const failure = repo.pushManifest(imageManifest(config, []), MediaType.ImageManifest, "x");
    await expect(failure).rejects.toMatchObject({ exitCode: 65 });
    await expect(failure).rejects.toThrow(/man\/broken.*BLOB_UNKNOWN/);
  });

  test("tags: the full list, and none for an unknown repository", async () => {
    const { descriptor } = await pushImage("tags/many");
    const repo = target("tags/many");
    const tags = ["a", "b", "c", "d", "e", "f", "g"];
    const bytes = (await repo.fetchManifest(descriptor.digest))?.bytes as Buffer;
    for (const tag of tags) await repo.pushManifest(bytes, MediaType.ImageManifest, tag);
    expect((await repo.listTags()).sort()).toEqual(tags);
    expect(await target("tags/none").listTags()).toEqual([]);
  });

  test("referrers fall back to the sha256-<hex> tag scheme on distribution 2.8", async () => {
    const { repo, config, descriptor } = await pushImage("ref/tool", "1");
    const signature = imageManifest(config, [], {
      artifactType: "application/vnd.example.sig",
      subject: descriptor,
      annotations: { "org.example.k": "v" },
    });
    const sbom = imageManifest(config, [], {
      artifactType: "application/vnd.example.sbom",
      subject: descriptor,
    });
    const sig = await repo.pushManifest(signature, MediaType.ImageManifest);
    const sbomDescriptor = await repo.pushManifest(sbom, MediaType.ImageManifest);
    await repo.pushManifest(signature, MediaType.ImageManifest);
    const tag = `sha256-${descriptor.digest.slice(7)}`;
    expect(await repo.listTags()).toContain(tag);
    expect(await repo.referrers(descriptor.digest)).toEqual([
      { ...sbomDescriptor, artifactType: "application/vnd.example.sbom" },
      { ...sig, artifactType: "application/vnd.example.sig", annotations: { "org.example.k": "v" } },
    ]);
    expect(
      (await repo.referrers(descriptor.digest, "application/vnd.example.sig")).map((d) => d.digest),
    ).toEqual([sig.digest]);
    expect(await repo.referrers(sig.digest)).toEqual([]);
  });
});
