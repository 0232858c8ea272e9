// Helpers for the bundle tests: building trees on disk, listing them, and reading archives with
// the independent tools (GNU tar, zstd, xz) and tar-stream. Node built-ins and tar-stream only.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { chmod, lstat, mkdir, readdir, readFile, readlink, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { extract, type Header, pack } from "tar-stream";

export type TreeNode =
  | { kind: "file"; content: string | Buffer; mode?: number }
  | { kind: "dir"; mode?: number }
  | { kind: "symlink"; target: string };

/** Relative path to node; parents are created as needed. */
export type TreeSpec = Record<string, TreeNode>;

export const file = (content: string | Buffer, mode = 0o644): TreeNode => ({ kind: "file", content, mode });
export const dir = (mode = 0o755): TreeNode => ({ kind: "dir", mode });
export const link = (target: string): TreeNode => ({ kind: "symlink", target });

/** Writes `spec` under `root` in the order of `paths` (default: the spec's order). */
export async function writeTree(root: string, spec: TreeSpec, paths = Object.keys(spec)): Promise<void> {
  await mkdir(root, { recursive: true });
  for (const path of paths) {
    const node = spec[path];
    if (!node) throw new Error(`no ${path} in the tree spec`);
    const target = join(root, path);
    await mkdir(dirname(target), { recursive: true });
    if (node.kind === "dir") {
      await mkdir(target, { recursive: true });
      await chmod(target, node.mode ?? 0o755);
    } else if (node.kind === "file") {
      await writeFile(target, node.content);
      await chmod(target, node.mode ?? 0o644);
    } else {
      await symlink(node.target, target);
    }
  }
}

export interface ListedNode {
  path: string;
  type: "file" | "directory" | "symlink";
  mode: number;
  /** sha256 of a file's content, or a symlink's target. */
  data: string;
}

/** Every path below `root`, sorted, with permission bits and content digests. */
export async function listTree(root: string, prefix = ""): Promise<ListedNode[]> {
  const listed: ListedNode[] = [];
  for (const name of (await readdir(join(root, prefix))).sort()) {
    const path = prefix === "" ? name : `${prefix}/${name}`;
    const info = await lstat(join(root, path));
    const mode = info.mode & 0o7777;
    if (info.isSymbolicLink()) {
      listed.push({ path, type: "symlink", mode: 0, data: await readlink(join(root, path)) });
    } else if (info.isDirectory()) {
      listed.push({ path, type: "directory", mode, data: "" });
      listed.push(...(await listTree(root, path)));
    } else {
      const data = createHash("sha256")
        .update(await readFile(join(root, path)))
        .digest("hex");
      listed.push({ path, type: "file", mode, data });
    }
  }
  return listed;
}

/** Runs a command and returns its stdout; a non-zero exit rejects with its stderr. */
export function run(command: string, args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { encoding: "buffer", maxBuffer: 1 << 30 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(" ")}: ${error.message}: ${stderr.toString()}`));
      else resolve(stdout);
    });
  });
}

/** The tar inside a bundle, decompressed by the zstd or xz command-line tool. */
export function decompressWithTool(bundle: string): Promise<Buffer> {
  return bundle.endsWith(".tar.xz") ? run("xz", ["-dc", bundle]) : run("zstd", ["-dcq", bundle]);
}

/** The headers of a tar, as tar-stream reads them. */
export async function tarHeaders(tar: Buffer): Promise<Header[]> {
  const parser = extract();
  const headers: Header[] = [];
  const feeding = new Promise<void>((resolve, reject) => {
    parser.on("error", reject);
    Readable.from([tar]).on("error", reject).pipe(parser);
    parser.on("finish", resolve);
  });
  for await (const entry of parser) {
    headers.push(entry.header);
    entry.resume();
  }
  await feeding;
  return headers;
}

export type CraftedEntry = { header: Header | (Partial<Header> & { name: string }); content?: string };

/** A tar made by tar-stream, so that entries our own writer never makes can be tried. */
export async function craftTar(path: string, entries: CraftedEntry[]): Promise<void> {
  const archive = pack();
  const chunks: Buffer[] = [];
  archive.on("data", (chunk: unknown) => {
    if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
  });
  const ended = new Promise<void>((resolve) => archive.on("end", () => resolve()));
  for (const { header, content } of entries) {
    await new Promise<void>((resolve, reject) => {
      const done = (error?: Error | null) => (error ? reject(error) : resolve());
      if (content === undefined) archive.entry(header, done);
      else archive.entry(header, content, done);
    });
  }
  archive.finalize();
  await ended;
  await writeFile(path, Buffer.concat(chunks));
}
