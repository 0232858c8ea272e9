// A ~200 MB directory that looks like a tool release: large binaries (part incompressible, part
// code-like), data files, thousands of small text files in nested directories, symlinks, empty
// directories. Generated from a fixed seed, once, and reused while its recipe version matches.
import { createCipheriv } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, rename, rm, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

const RECIPE_VERSION = "mixed-tree v2";

/** Deterministic pseudo-random bytes: AES-128-CTR of zeros under a fixed key. */
class Prng {
  #cipher;
  #pool: Buffer = Buffer.alloc(0);
  #at = 0;

  constructor(seed: string) {
    const key = Buffer.alloc(16);
    key.write(seed);
    this.#cipher = createCipheriv("aes-128-ctr", key, Buffer.alloc(16));
  }

  bytes(length: number): Buffer {
    return this.#cipher.update(Buffer.alloc(length));
  }

  /** An integer in [0, limit). */
  below(limit: number): number {
    if (this.#at + 4 > this.#pool.length) {
      this.#pool = this.bytes(1 << 16);
      this.#at = 0;
    }
    const value = this.#pool.readUInt32LE(this.#at);
    this.#at += 4;
    return value % limit;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)] as T;
  }
}

const words = [
  "config",
  "buffer",
  "request",
  "handler",
  "stream",
  "parse",
  "value",
  "index",
  "result",
  "error",
  "module",
  "export",
  "import",
  "return",
  "const",
  "string",
  "number",
  "options",
  "context",
  "state",
  "render",
  "update",
  "create",
  "delete",
  "resolve",
  "reject",
  "promise",
  "async",
  "await",
  "source",
  "target",
  "version",
  "package",
  "release",
  "platform",
  "binary",
  "archive",
  "digest",
  "layer",
  "tag",
] as const;

function textBlock(prng: Prng, bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const indent = "  ".repeat(prng.below(4));
    const count = 3 + prng.below(9);
    const tokens = Array.from({ length: count }, () => prng.pick(words));
    const line = `${indent}${tokens.join(prng.pick([" ", "_", ".", "(", ", "]))};`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join("\n")}\n`;
}

/** Code-like bytes: a small alphabet with repeats, which compresses about 3:1 like machine code. */
function codeBlock(prng: Prng, bytes: number): Buffer {
  const block = Buffer.alloc(bytes);
  const motifs = Array.from({ length: 64 }, () => prng.bytes(4 + prng.below(12)));
  for (let at = 0; at < bytes; ) {
    const motif = prng.pick(motifs);
    at += motif.copy(block, at);
    if (prng.below(3) === 0 && at < bytes) block[at++] = prng.below(256);
  }
  return block;
}

function binaryContent(prng: Prng, bytes: number): Buffer {
  const blocks: Buffer[] = [];
  const blockSize = 64 << 10;
  for (let made = 0; made < bytes; made += blockSize) {
    const size = Math.min(blockSize, bytes - made);
    const kind = prng.below(20);
    if (kind < 7) blocks.push(prng.bytes(size));
    else if (kind < 16) blocks.push(codeBlock(prng, size));
    else if (kind < 18) blocks.push(Buffer.alloc(size));
    else blocks.push(Buffer.from(textBlock(prng, size).slice(0, size)).subarray(0, size));
  }
  return Buffer.concat(blocks, bytes);
}

const MiB = 1 << 20;

async function put(path: string, content: Buffer | string, mode = 0o644): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
  await chmod(path, mode);
}

async function generate(root: string): Promise<void> {
  const prng = new Prng("pkg-bench-mixed");
  const binaries: [string, number][] = [
    ["bin/tool", 48 * MiB],
    ["bin/tool-helper", 24 * MiB],
    ["libexec/tool/agent", 8 * MiB],
    ["lib/libcore.so.3.1.0", 32 * MiB],
    ["lib/libextra.so.1.2.3", 16 * MiB],
  ];
  for (const [path, size] of binaries) {
    await put(join(root, path), binaryContent(prng, size), path.startsWith("lib/") ? 0o644 : 0o755);
  }
  await symlink("libcore.so.3.1.0", join(root, "lib/libcore.so.3"));
  await symlink("libcore.so.3", join(root, "lib/libcore.so"));
  await symlink("libextra.so.1.2.3", join(root, "lib/libextra.so"));
  await symlink("../libexec/tool/agent", join(root, "bin/tool-agent"));

  for (let index = 0; index < 6; index++) {
    const data = Buffer.concat([codeBlock(prng, 3 * MiB), prng.bytes(MiB)]);
    await put(join(root, `share/tool/data/table-${index}.dat`), data);
  }

  // about ten files per directory, as in real releases: 400 directories up to 4 levels deep
  const areas = ["include/tool", "share/doc/tool", "lib/python3/site-packages/tool", "share/tool/templates"];
  const extensions = [".h", ".md", ".py", ".tmpl"];
  const directories = areas.flatMap((area) =>
    Array.from({ length: 100 }, () => {
      const depth = prng.below(4);
      return join(area, ...Array.from({ length: depth }, () => `${prng.pick(words)}${prng.below(3)}`));
    }),
  );
  for (let index = 0; index < 4000; index++) {
    const dir = prng.pick(directories);
    const name = `${prng.pick(words)}_${index}${extensions[index % extensions.length]}`;
    const size = 512 + prng.below(prng.below(8) === 0 ? 64 * 1024 : 16 * 1024);
    await put(join(root, dir, name), textBlock(prng, size), index % 97 === 0 ? 0o755 : 0o644);
  }
  for (const empty of ["var/lib/tool", "share/tool/plugins", "etc/tool/conf.d"]) {
    await mkdir(join(root, empty), { recursive: true });
  }
}

/** The path of the benchmark tree under `benchDir`, generated on first use. */
export async function mixedTree(benchDir: string): Promise<string> {
  const root = join(benchDir, "mixed-tree");
  const marker = join(benchDir, "mixed-tree.version");
  if (existsSync(root) && existsSync(marker) && readFileSync(marker, "utf8") === RECIPE_VERSION) return root;
  const building = `${root}.building`;
  await rm(building, { recursive: true, force: true });
  await rm(root, { recursive: true, force: true });
  await generate(building);
  await rename(building, root);
  await writeFile(marker, RECIPE_VERSION);
  return root;
}
