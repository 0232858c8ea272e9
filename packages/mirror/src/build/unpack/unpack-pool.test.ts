import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { isPkgError, type PkgError } from "@pkg/common";
import { runCommand, type TempDir, tempDir } from "@pkg/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { unpackAsset } from "./unpack.js";
import { createUnpackPool, type UnpackPool } from "./unpack-pool.js";

let dir: TempDir;
let pool: UnpackPool;
const archive = { assetType: { type: "archive" as const, strip_components: 1 }, platform: "linux/amd64" };

async function rejection(work: Promise<unknown>): Promise<PkgError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isPkgError(error)) throw new Error(`expected a PkgError, got ${String(error)}`);
  return error;
}

/** A .tar.gz of `tool-1.0/` holding `files` (path -> content) under `dir`. */
async function tarGz(name: string, files: Record<string, string | Buffer>): Promise<string> {
  const src = join(dir.path, `${name}.src`);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(src, "tool-1.0", path, ".."), { recursive: true });
    await writeFile(join(src, "tool-1.0", path), content);
  }
  await runCommand("tar", ["-czf", name, "-C", src, "tool-1.0"], { cwd: dir.path });
  return join(dir.path, name);
}

beforeEach(async () => {
  dir = await tempDir("unpack-pool-");
  pool = createUnpackPool(1);
});
afterEach(async () => {
  await pool.close();
  await dir.remove();
});

describe("createUnpackPool", () => {
  it("unpacks on a worker thread exactly as unpackAsset does here", async () => {
    const asset = await tarGz("tool.tar.gz", {
      "bin/tool": "#!/bin/sh\n",
      "share/data": randomBytes(1 << 20),
    });
    const here = await unpackAsset(asset, join(dir.path, "here"), archive);
    const there = await pool.unpack(asset, join(dir.path, "there"), archive);
    expect(there).toEqual(here);
    for (const path of ["bin/tool", "share/data"]) {
      expect(await readFile(join(dir.path, "there", path))).toEqual(
        await readFile(join(dir.path, "here", path)),
      );
    }
  });

  it("rejects with the exit code, message and detail unpackAsset gives", async () => {
    const asset = await tarGz("bomb.tar.gz", { big: Buffer.alloc(1 << 20) });
    const options = { ...archive, assetName: "bomb.tar.gz", limits: { maxBytes: 1 << 16 } };
    const expected = await rejection(unpackAsset(asset, join(dir.path, "here"), options));
    const actual = await rejection(pool.unpack(asset, join(dir.path, "there"), options));
    expect([actual.exitCode, actual.message, actual.detail]).toEqual([
      expected.exitCode,
      expected.message,
      "unpack_limit",
    ]);
    expect(actual.message).toMatch(/^bomb\.tar\.gz: .*decompression bomb/);
  });

  it("terminates a running unpack when its signal aborts, leaving no partial tree, then works on", async () => {
    // a plain tar of 256 MiB of zeros unpacks for long enough to be caught in the middle
    const big = join(dir.path, "big.tar");
    await runCommand(
      "sh",
      [
        "-c",
        "mkdir -p t/top && head -c 268435456 /dev/zero > t/top/zeros && tar -cf big.tar -C t top && rm -r t",
      ],
      { cwd: dir.path },
    );
    const controller = new AbortController();
    const dest = join(dir.path, "tree");
    const running = pool.unpack(big, dest, archive, controller.signal);
    while (!(await readdir(dir.path)).some((name) => name.startsWith(".tree."))) await sleep(2);
    controller.abort();
    const error = await rejection(running);
    expect(error.detail).toBe("cancelled");
    expect((await readdir(dir.path)).sort()).toEqual(["big.tar"]);

    const asset = await tarGz("small.tar.gz", { a: "a" });
    await pool.unpack(asset, dest, archive);
    expect((await stat(join(dest, "a"))).size).toBe(1);
  });

  it("never starts a waiting unpack whose signal aborts", async () => {
    const asset = await tarGz("tool.tar.gz", { a: randomBytes(4 << 20) });
    const first = pool.unpack(asset, join(dir.path, "first"), archive);
    const controller = new AbortController();
    const queued = pool.unpack(asset, join(dir.path, "second"), archive, controller.signal);
    controller.abort();
    expect((await rejection(queued)).detail).toBe("cancelled");
    await first;
    expect((await readdir(dir.path)).sort()).toEqual(["first", "tool.tar.gz", "tool.tar.gz.src"]);
  });
});
