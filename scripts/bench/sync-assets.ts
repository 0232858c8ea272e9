// The upstream of the sync benchmark: one ~30 MB .tar.gz per (version, platform), each of a tree
// that is part code-like (compressible about 3.5:1) and part random, all distinct. The trees are
// kept beside the archives: they are what the reference `tar | zstd` compresses. Generated from
// fixed seeds, once, and reused while the recipe version matches.
import { spawn } from "node:child_process";
import { createCipheriv, createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { sha256File } from "@pkg/package/push";
import pLimit from "p-limit";
import tarStream from "tar-stream";

const RECIPE_VERSION = "sync-assets v1";
const MiB = 1 << 20;

export interface BenchAsset {
  version: string;
  platform: string;
  /** The release asset's file name. */
  name: string;
  /** The .tar.gz. */
  path: string;
  /** The unpacked tree the archive was made from. */
  tree: string;
  size: number;
  /** `sha256:<hex>`, as the forge declares it. */
  digest: string;
}

export function platformSlug(platform: string): string {
  return platform.replace(/[/+]/g, "-");
}

/** Deterministic bytes: AES-128-CTR of zeros under a key made from the seed. */
function seededBytes(seed: string): (length: number) => Buffer {
  const key = createHash("sha256").update(seed).digest().subarray(0, 16);
  const cipher = createCipheriv("aes-128-ctr", key, Buffer.alloc(16));
  return (length) => cipher.update(Buffer.alloc(length));
}

/** Machine-code-like bytes: motifs of 4..15 bytes from a small set, with stray random bytes. */
function codeLike(random: (length: number) => Buffer, size: number): Buffer {
  const motifs = Array.from({ length: 512 }, (_, i) => random(4 + (i % 12)));
  const choices = random(size);
  const out = Buffer.alloc(size);
  let at = 0;
  for (let k = 0; at < size; k += 2) {
    const a = choices[k % size] as number;
    const b = choices[(k + 1) % size] as number;
    at += (motifs[((a << 1) | (b & 1)) & 511] as Buffer).copy(out, at);
    if ((b & 6) === 0 && at < size) out[at++] = choices[(k + 7) % size] as number;
  }
  return out;
}

/** 64 KiB blocks, `randomShare` of them random and the rest code-like, interleaved. */
function mixed(random: (length: number) => Buffer, size: number, randomShare: number): Buffer {
  const block = 64 * 1024;
  const code = codeLike(random, size);
  const draws = random(Math.ceil(size / block));
  for (let i = 0; i * block < size; i++) {
    if ((draws[i] as number) < randomShare * 256) random(block).copy(code, i * block);
  }
  return code;
}

async function put(path: string, content: Buffer, mode = 0o644): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
  await chmod(path, mode);
}

/** About 60 MB: 45 MB code-like, 15 MB random; its .tar.gz is about 30 MB. */
async function writeTree(root: string, seed: string): Promise<void> {
  const random = seededBytes(seed);
  await put(join(root, "bin/tool"), mixed(random, 36 * MiB, 0.17), 0o755);
  await put(join(root, "lib/libtool.so.1"), mixed(random, 20 * MiB, 0.25));
  await put(join(root, "share/tool/assets.pak"), random(4 * MiB));
  for (let i = 0; i < 40; i++)
    await put(join(root, `share/doc/tool/page-${i}.txt`), codeLike(random, 16 * 1024));
}

function sh(script: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", `set -o pipefail; ${script}`, "bench", ...args], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.once("error", reject);
    child.once("close", (code) => (code === 0 ? resolve() : reject(new Error(`${script}: ${stderr}`))));
  });
}

async function makeAsset(dir: string, version: string, platform: string): Promise<BenchAsset> {
  const name = `tool-${version}-${platformSlug(platform)}.tar.gz`;
  const tree = join(dir, "trees", `${version}-${platformSlug(platform)}`);
  const path = join(dir, "assets", name);
  await rm(tree, { recursive: true, force: true });
  await writeTree(tree, `${version} ${platform}`);
  await mkdir(dirname(path), { recursive: true });
  await sh(
    'tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@1700000000 -C "$1" -cf - . | gzip -6n > "$2.partial" && mv "$2.partial" "$2"',
    [tree, path],
  );
  return {
    version,
    platform,
    name,
    path,
    tree,
    size: (await stat(path)).size,
    digest: await sha256File(path),
  };
}

/** The assets of every (version, platform) under `<benchDir>/sync`, generated on first use. */
export async function syncAssets(
  benchDir: string,
  versions: readonly string[],
  platforms: readonly string[],
): Promise<BenchAsset[]> {
  const dir = join(benchDir, "sync");
  const index = join(dir, "assets.json");
  const recipe = `${RECIPE_VERSION} ${versions.join(",")} ${platforms.join(",")}`;
  if (existsSync(index)) {
    const cached = JSON.parse(readFileSync(index, "utf8")) as { recipe: string; assets: BenchAsset[] };
    if (cached.recipe === recipe) return cached.assets;
  }
  await rm(dir, { recursive: true, force: true });
  process.stderr.write(`generating ${versions.length * platforms.length} assets under ${dir} (once)\n`);
  const limit = pLimit(availableParallelism());
  const assets = await Promise.all(
    versions.flatMap((v) => platforms.map((p) => limit(() => makeAsset(dir, v, p)))),
  );
  await writeFile(`${index}.partial`, JSON.stringify({ recipe, assets }));
  await rename(`${index}.partial`, index);
  return assets;
}

/** A tiny .tar.gz holding `bin/tool`, a script naming its version and platform. */
export async function smallAsset(version: string, platform: string): Promise<Buffer> {
  const pack = tarStream.pack();
  pack.entry(
    { name: "bin/tool", mode: 0o755, mtime: new Date(0) },
    `#!/bin/sh\necho "tool ${version} ${platform}"\n`,
  );
  pack.finalize();
  const chunks: Buffer[] = [];
  await pipeline(pack, createGzip(), async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) chunks.push(chunk);
  });
  return Buffer.concat(chunks);
}
