import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { isPkgError } from "@pkg/common";
import { runCommand, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTar } from "../../../test/support/crafted-archives.js";
import { DEFAULT_UNPACK_LIMITS, type UnpackLimits } from "./limits.js";
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
  // 16 MiB of zeros: over 1000:1, but under the ratio's floor
  await sh("truncate -s 16M small && gzip -1 small");
  // 1 MiB of noise and 9 MiB of zeros: about 10:1, an honest archive's expansion
  await sh(
    "mkdir mixed && head -c 1048576 /dev/urandom > mixed/noise && truncate -s 9M mixed/zeros && tar -czf mixed.tar.gz mixed && rm -r mixed",
  );
});
afterAll(async () => {
  await dir.remove();
});

const unpack = (asset: string, assetType: UnpackAssetType, limits: Partial<UnpackLimits>) =>
  unpackAsset(join(dir.path, asset), join(dir.path, "out"), { assetType, platform: "linux/amd64", limits });

async function expectBomb(
  asset: string,
  assetType: UnpackAssetType,
  limits: Partial<UnpackLimits>,
  what: RegExp,
): Promise<void> {
  const before = (await readdir(dir.path)).sort();
  const error = await unpack(asset, assetType, limits).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isPkgError(error)) throw new Error(`expected a refusal, got ${String(error)}`);
  expect(error.exitCode).toBe(65);
  expect(error.detail).toBe("unpack_limit");
  expect(error.message).toMatch(new RegExp(`^${asset.replaceAll(".", "\\.")}: `));
  expect(error.message).toMatch(what);
  // the partial tree is gone
  expect((await readdir(dir.path)).sort()).toEqual(before);
}

const archive: UnpackAssetType = { type: "archive", strip_components: 0 };
const binary: UnpackAssetType = { type: "binary", name: "tool" };
const bytesLimit = { maxBytes: MiB, maxEntries: 10 };
const overMiB = /unpacks to more than 1048576 bytes \(the limit\); refusing it as a decompression bomb/;
/** The ratio past a floor of 1 MiB: a bomb stops at 200 times its size or 1 MiB, whichever is more. */
const ratioLimit = { ratioFloorBytes: MiB };
const overRatio = (ceiling: string) =>
  new RegExp(
    `unpacks to more than ${ceiling} bytes, over 200 times its own [0-9]+ \\(the expansion limit past [0-9]+ bytes\\); refusing it as a decompression bomb$`,
  );

describe("decompression bombs", () => {
  it("stops a tar.zst of 1 GiB of zeros at the configured limit", async () => {
    await expectBomb("gig.tar.zst", archive, bytesLimit, overMiB);
  });

  it.each([
    ["zeros.gz", binary],
    ["zeros.bz2", binary],
    ["zeros.tar.xz", archive],
    ["zeros.zip", archive],
  ] as const)("stops %s at the configured limit", async (asset, assetType) => {
    await expectBomb(asset, assetType, bytesLimit, overMiB);
  });

  it("stops an archive with more entries than allowed", async () => {
    await writeTar(
      join(dir.path, "many.tar"),
      Array.from({ length: 11 }, (_, index) => ({ name: `f${index}`, body: "" })),
    );
    await expectBomb("many.tar", archive, bytesLimit, /holds more than 10 entries \(the limit\)/);
  });

  it.each([
    ["gig.tar.zst", archive],
    ["zeros.gz", binary],
    ["zeros.bz2", binary],
    ["zeros.tar.xz", archive],
    ["zeros.zip", archive],
  ] as const)("stops %s at the expansion ratio, far below the byte limit", async (asset, assetType) => {
    const size = (await stat(join(dir.path, asset))).size;
    const ceiling = Math.max(MiB, 200 * size);
    expect(ceiling).toBeLessThan(64 * MiB);
    await expectBomb(asset, assetType, ratioLimit, overRatio(String(ceiling)));
  });

  it("stops 1 GiB of zeros at the default ratio's 64 MiB floor", async () => {
    await expectBomb("gig.tar.zst", archive, {}, overRatio(String(64 * MiB)));
  });

  it("lets a small asset of any ratio through, and a large one of an honest ratio", async () => {
    const small = await unpack("small.gz", binary, {});
    expect(small.bytes).toBe(16 * MiB);
    await rm(join(dir.path, "out"), { recursive: true });
    const mixed = await unpack("mixed.tar.gz", archive, ratioLimit);
    expect(mixed.bytes).toBeGreaterThan(10 * MiB);
    await rm(join(dir.path, "out"), { recursive: true });
  });

  it("defaults to 4 GiB, a million entries, and 200:1 past 64 MiB", () => {
    expect(DEFAULT_UNPACK_LIMITS).toEqual({
      maxBytes: 4 * 1024 ** 3,
      maxEntries: 1_000_000,
      maxRatio: 200,
      ratioFloorBytes: 64 * 1024 ** 2,
    });
  });
});
