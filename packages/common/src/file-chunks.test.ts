import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readlink, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forEachFileChunk } from "./file-chunks.js";

let dir: string;
beforeAll(async () => {
  // its real path: what /proc names an open file by
  dir = await realpath(await mkdtemp(join(tmpdir(), "file-chunks-")));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Every chunk's size, and their bytes copied out (a chunk is only valid during its call). */
async function chunksOf(path: string, chunkBytes: number) {
  const sizes: number[] = [];
  const copies: Buffer[] = [];
  await forEachFileChunk(
    path,
    (chunk) => {
      sizes.push(chunk.length);
      copies.push(Buffer.from(chunk));
    },
    chunkBytes,
  );
  return { sizes, bytes: Buffer.concat(copies) };
}

/** Whether this process holds `path` open: by name, since other test files share the process. */
async function holdsOpen(path: string): Promise<boolean> {
  const fds = await readdir("/proc/self/fd");
  const targets = await Promise.all(fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => "")));
  return targets.includes(path);
}

describe("forEachFileChunk", () => {
  it("hands over the whole file in order, in chunks of the given size and a shorter last one", async () => {
    const content = randomBytes(2 * 1024 + 512);
    const path = join(dir, "odd");
    await writeFile(path, content);
    const { sizes, bytes } = await chunksOf(path, 1024);
    expect(sizes).toEqual([1024, 1024, 512]);
    expect(bytes.equals(content)).toBe(true);
  });

  it("ends a file of whole chunks without an empty one, and visits nothing of an empty file", async () => {
    const whole = join(dir, "whole");
    await writeFile(whole, randomBytes(3 * 256));
    expect((await chunksOf(whole, 256)).sizes).toEqual([256, 256, 256]);
    const empty = join(dir, "empty");
    await writeFile(empty, "");
    expect((await chunksOf(empty, 256)).sizes).toEqual([]);
  });

  it("rejects with the visitor's error and leaves no file open", async () => {
    const path = join(dir, "thrown");
    await writeFile(path, randomBytes(10 * 1024));
    let visits = 0;
    const failing = forEachFileChunk(
      path,
      () => {
        visits += 1;
        if (visits === 2) throw new Error("visitor failed");
      },
      1024,
    );
    await expect(failing).rejects.toThrow("visitor failed");
    expect(visits).toBe(2);
    expect(await holdsOpen(path)).toBe(false);
  });

  it("rejects for a missing file", async () => {
    await expect(forEachFileChunk(join(dir, "missing"), () => undefined)).rejects.toMatchObject({
      code: "ENOENT",
    });
  });
});
