import { randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { PkgError } from "@pkg/common";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { file, link, writeTree } from "../../test/support/bundle-trees.js";
import { createBundle } from "./create.js";
import { sidecarPath } from "./digest-sidecar.js";
import { type BundlePool, createBundlePool } from "./worker-pool.js";

/** Bytes that compress, but slowly at level 19: letters drawn at random, a space every 8th. */
function slowText(bytes: number): Buffer {
  const text = randomBytes(bytes);
  for (let i = 0; i < bytes; i++) text[i] = i % 8 === 7 ? 32 : 97 + ((text[i] as number) & 15);
  return text;
}

async function rejection(promise: Promise<unknown>): Promise<PkgError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PkgError);
  return error as PkgError;
}

/** Resolves once a temporary file of `output` exists: the worker is writing it. */
async function writing(output: string): Promise<void> {
  const prefix = `.${output.split("/").at(-1)}.`;
  const dir = output.slice(0, output.lastIndexOf("/"));
  while (!(await readdir(dir)).some((name) => name.startsWith(prefix))) await sleep(5);
}

describe("createBundlePool", () => {
  let tmp: TempDir;
  let pool: BundlePool;
  beforeEach(async () => {
    tmp = await tempDir("bundle-pool-");
    pool = createBundlePool(1);
  });
  afterEach(async () => {
    await pool.close();
    await tmp.remove();
  });

  it("writes the same bytes and sidecar as createBundle on the calling thread", async () => {
    const src = join(tmp.path, "src");
    await writeTree(src, {
      "bin/tool": file("#!/bin/sh\necho hi\n", 0o755),
      "lib/data": file(randomBytes(3 << 20)),
      "lib/alias": link("data"),
    });
    const here = await createBundle({ sourceDir: src, output: join(tmp.path, "here.tar.zst"), threads: 2 });
    const there = await pool.create({ sourceDir: src, output: join(tmp.path, "there.tar.zst"), threads: 1 });
    expect(there).toEqual(here);
    expect(await readFile(join(tmp.path, "there.tar.zst"))).toEqual(
      await readFile(join(tmp.path, "here.tar.zst")),
    );
    const sidecar = JSON.parse(await readFile(sidecarPath(join(tmp.path, "there.tar.zst")), "utf8"));
    expect(sidecar.digest).toBe(there.digest);
  });

  it("rejects with the exit code and message createBundle gives", async () => {
    const options = { sourceDir: join(tmp.path, "missing"), output: join(tmp.path, "out.tar.zst") };
    const expected = await rejection(createBundle(options));
    const actual = await rejection(pool.create(options));
    expect([actual.exitCode, actual.message]).toEqual([expected.exitCode, expected.message]);
  });

  it("terminates a running bundle when its signal aborts, leaving no partial file, then works on", async () => {
    const src = join(tmp.path, "src");
    await writeTree(src, { big: file(slowText(8 << 20)) });
    const output = join(tmp.path, "slow.tar.zst");
    const controller = new AbortController();
    const running = pool.create({ sourceDir: src, output, level: 19, threads: 1 }, controller.signal);
    await writing(output);
    controller.abort();
    const error = await rejection(running);
    expect(error.detail).toBe("cancelled");
    expect(await readdir(tmp.path)).toEqual(["src"]);

    await writeTree(join(tmp.path, "small"), { a: file("a") });
    const after = await pool.create({
      sourceDir: join(tmp.path, "small"),
      output: join(tmp.path, "a.tar.zst"),
    });
    expect(after.entries).toBe(1);
  });

  it("never starts a waiting bundle whose signal aborts", async () => {
    const src = join(tmp.path, "src");
    await writeTree(src, { big: file(slowText(8 << 20)) });
    const first = new AbortController();
    const running = pool.create(
      { sourceDir: src, output: join(tmp.path, "first.tar.zst"), level: 19, threads: 1 },
      first.signal,
    );
    const second = new AbortController();
    const queued = pool.create({ sourceDir: src, output: join(tmp.path, "second.tar.zst") }, second.signal);
    await writing(join(tmp.path, "first.tar.zst"));
    second.abort();
    expect((await rejection(queued)).detail).toBe("cancelled");
    first.abort();
    await rejection(running);
    expect(await readdir(tmp.path)).toEqual(["src"]);
  });
});
