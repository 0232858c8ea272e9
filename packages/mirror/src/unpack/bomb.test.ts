import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { isPkgError } from "@pkg/common";
import { runCommand, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_UNPACK_LIMITS } from "./limits.js";
import { writeTar } from "./test-archives.js";
import { type UnpackAssetType, unpackAsset } from "./unpack.js";

let dir: TempDir;
const sh = (script: string) => runCommand("sh", ["-c", script], { cwd: dir.path });
const MiB = 1024 * 1024;

beforeAll(async () => {
  dir = await tempDir("bomb-");
  // sparse files of zeros: tar and zip read them as zeros, the compressors squeeze them to almost nothing
  await sh("truncate -s 1G gig && truncate -s 64M zeros");
  await sh("tar --zstd -cf gig.tar.zst gig && rm gig");
  await sh(
    "gzip -1 -c zeros > zeros.gz && bzip2 -1 -c zeros > zeros.bz2 && tar -cJf zeros.tar.xz zeros && zip -q zeros.zip zeros && rm zeros",
  );
});
afterAll(async () => {
  await dir.remove();
});

async function expectBomb(
  asset: string,
  assetType: UnpackAssetType,
  limit: number,
  what: RegExp,
): Promise<void> {
  const before = (await readdir(dir.path)).sort();
  const error = await unpackAsset(join(dir.path, asset), join(dir.path, "out"), {
    assetType,
    platform: "linux/amd64",
    limits: { maxBytes: limit, maxEntries: 10 },
  }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isPkgError(error)) throw new Error(`expected a refusal, got ${String(error)}`);
  expect(error.exitCode).toBe(65);
  expect(error.detail).toBe("unpack_limit");
  expect(error.message).toMatch(new RegExp(`^${asset.replaceAll(".", "\\.")}: `));
  expect(error.message).toMatch(what);
  expect((await readdir(dir.path)).sort()).toEqual(before);
}

const archive: UnpackAssetType = { type: "archive", strip_components: 0 };
const binary: UnpackAssetType = { type: "binary", name: "tool" };
const overMiB = /unpacks to more than 1048576 bytes \(the limit\); refusing it as a decompression bomb/;

describe("decompression bombs", () => {
  it("stops a tar.zst of 1 GiB of zeros at the configured limit", async () => {
    await expectBomb("gig.tar.zst", archive, MiB, overMiB);
  });

  it.each([
    ["zeros.gz", binary],
    ["zeros.bz2", binary],
    ["zeros.tar.xz", archive],
    ["zeros.zip", archive],
  ] as const)("stops %s at the configured limit", async (asset, assetType) => {
    await expectBomb(asset, assetType, MiB, overMiB);
  });

  it("stops an archive with more entries than allowed", async () => {
    await writeTar(
      join(dir.path, "many.tar"),
      Array.from({ length: 11 }, (_, index) => ({ name: `f${index}`, body: "" })),
    );
    await expectBomb("many.tar", archive, MiB, /holds more than 10 entries \(the limit\)/);
  });

  it("defaults to 4 GiB and a million entries", () => {
    expect(DEFAULT_UNPACK_LIMITS).toEqual({ maxBytes: 4 * 1024 ** 3, maxEntries: 1_000_000 });
  });
});
