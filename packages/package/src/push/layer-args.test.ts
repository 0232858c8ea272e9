import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ExitCode, PkgError } from "@pkg/common";
import { openMemory } from "@pkg/oci";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PackageMediaType } from "../media-types.js";
import { parseLayerArg, readLocalLayer } from "./layer-args.js";

describe("parseLayerArg", () => {
  it("reads a plain path and a :from= tail", () => {
    expect(parseLayerArg("a/b.tar.zst")).toEqual({ path: "a/b.tar.zst" });
    expect(parseLayerArg("w.tar.zst:from=pip-packages/files.example/numpy")).toEqual({
      path: "w.tar.zst",
      mountFrom: "pip-packages/files.example/numpy",
    });
  });

  it("keeps colons that are part of the path", () => {
    expect(parseLayerArg("C:dir/x.tar.xz")).toEqual({ path: "C:dir/x.tar.xz" });
  });

  it.each(["x.tar.zst:from=", "x.tar.zst:from=Upper/Case", ":from=a/b"])("refuses %j with exit 64", (arg) => {
    expect(() => parseLayerArg(arg)).toThrowError(PkgError);
    expect(() => parseLayerArg(arg)).toThrowError(expect.objectContaining({ exitCode: ExitCode.Usage }));
  });
});

describe("readLocalLayer", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pkg-layer-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("detects zstd and xz by their magic bytes and digests the file", async () => {
    const zst = join(dir, "a.bin");
    await writeFile(zst, Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3]));
    const layer = await readLocalLayer({ path: zst });
    expect(layer.mediaType).toBe(PackageMediaType.LayerZstd);
    expect(layer.source.size).toBe(7);
    const expected = createHash("sha256")
      .update(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3]))
      .digest("hex");
    expect(layer.source.digest).toBe(`sha256:${expected}`);
    const xz = join(dir, "b.bin");
    await writeFile(xz, Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 9]));
    expect((await readLocalLayer({ path: xz })).mediaType).toBe(PackageMediaType.LayerXz);
  });

  it("reports the file unchanged until something writes to it", async () => {
    const path = join(dir, "vouch.bin");
    await writeFile(path, Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3]));
    const layer = await readLocalLayer({ path });
    expect(await layer.source.unchanged?.()).toBe(true);
    await writeFile(path, Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 4]));
    expect(await layer.source.unchanged?.()).toBe(false);
  });

  it("takes a digest the caller checked instead of hashing; a wrong one is refused by the store, never lands", async () => {
    const path = join(dir, "checked.bin");
    const bytes = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 5, 6, 7]);
    await writeFile(path, bytes);
    const right = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
    const wrong = `sha256:${"0".repeat(64)}`;
    expect((await readLocalLayer({ path, digest: right })).source.digest).toBe(right);
    const target = openMemory("layers/checked");
    await target.pushBlob((await readLocalLayer({ path, digest: right })).source);
    expect(await target.blobSize(right)).toBe(bytes.length);
    const lying = await readLocalLayer({ path, digest: wrong });
    expect(lying.source.digest).toBe(wrong);
    await expect(target.pushBlob(lying.source)).rejects.toMatchObject({ exitCode: ExitCode.Data });
    expect(await target.blobSize(wrong)).toBeUndefined();
  });

  it("refuses a missing file, a directory and a non-bundle with exit 65", async () => {
    const plain = join(dir, "plain.txt");
    await writeFile(plain, "hello");
    for (const path of [join(dir, "missing.tar.zst"), dir, plain]) {
      await expect(readLocalLayer({ path })).rejects.toMatchObject({ exitCode: ExitCode.Data });
    }
  });
});
