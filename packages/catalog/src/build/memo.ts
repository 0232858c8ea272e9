import { createHash, randomBytes } from "node:crypto";
import { closeSync, lstatSync, openSync, writeSync } from "node:fs";
import { mkdir, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import type { PackageView } from "../site/model/types.js";

/**
 * What a build left in its output, so that the next build onto it writes only what changed.
 *
 * Every output file has a key hashing everything that produced it (a page: the renderer, the chrome,
 * its package's view, README digest and successor; an index file: its digest; anything else: its
 * bytes) and the identity it had when written (inode, size, modification time): a file whose
 * identity changed since (edited, replaced, removed) is never reused. Every package read has its root
 * digest, the label and context it was viewed in, its view and the index files it brought, so a
 * package whose root digest is unchanged is not read again (the same digest names the same bytes).
 */
export interface BuildMemo {
  /** The output directory (its real path) the memo describes. */
  out: string;
  /** Hash of the renderer's code and libraries: any change re-renders everything. */
  renderer: string;
  files: Map<string, MemoFile>;
  /** Per source (by its position in `sources[]`): packages by their c/index.json key. */
  sources: Map<number, Map<string, MemoPackage>>;
}

export interface MemoFile {
  key: string;
  /** Inode, size, mtimeMs when written; undefined for a file whose identity is not checked (dev). */
  ident?: FileIdent;
  /** The build that last produced or kept it (a build updating its output in place marks what it
   *  keeps, and removes the rest); never saved. */
  seen?: number;
}

export type FileIdent = [ino: number, size: number, mtimeMs: number];

export interface MemoPackage {
  /** The root digest from c/index.json. */
  digest: string;
  /** The index label it was read under. */
  label: string;
  /** The index context it was viewed in (root flag, owner links): viewed again when it changes. */
  context: string;
  view: PackageView;
  /** sha256 of the view's JSON (part of its page's key). */
  viewHash: string;
  /** Its README's index path, when it has one. */
  readme?: string;
  /** Its index files (index-relative paths) with their keys. */
  files: [string, string][];
}

/** Format of the memo file; a memo of another format is ignored. */
const FORMAT = 3;

/** The memo file: each directory's files as [name, key (0: the content address its name holds),
 *  ino, size, mtimeMs], each package's index files as its object names (its root's key is its digest). */
interface MemoJson {
  format: number;
  out: string;
  renderer: string;
  dirs: [string, [string, string | 0, number, number, number][]][];
  sources: [number, [string, PackageJson][]][];
}

type PackageJson = Omit<MemoPackage, "files"> & { objects: string[] };

const objectName = /^[0-9a-f]{64}\.[a-z]+$/;

/** The key an index file's name implies (content-addressed objects), else undefined. */
function impliedKey(dir: string, name: string): string | undefined {
  return objectName.test(name) && dir.endsWith("/o/sha256") ? `sha256:${name.slice(0, 64)}` : undefined;
}

function packageToJson(key: string, memo: MemoPackage): PackageJson | undefined {
  const objects: string[] = [];
  const prefix = `p/${key}/o/sha256/`;
  for (const [path, fileKey] of memo.files) {
    if (path === `p/${key}.json` && `sha256:${fileKey}` === memo.digest) continue;
    const name = path.slice(prefix.length);
    if (!path.startsWith(prefix) || fileKey !== impliedKey(prefix.slice(0, -1), name)) return undefined;
    objects.push(name);
  }
  const { files: _files, ...rest } = memo;
  return { ...rest, objects };
}

function packageFromJson(key: string, json: PackageJson): MemoPackage {
  const { objects, ...rest } = json;
  const files: [string, string][] = [[`p/${key}.json`, json.digest.replace(/^sha256:/, "")]];
  for (const name of objects) files.push([`p/${key}/o/sha256/${name}`, `sha256:${name.slice(0, 64)}`]);
  return { ...rest, files };
}

export function emptyMemo(out: string, renderer: string): BuildMemo {
  return { out, renderer, files: new Map(), sources: new Map() };
}

/** Where the memo of the output `out` (a real path) lives: in the cache directory, never in the
 *  output (it would be deployed with the site). */
export function memoFile(cacheDir: string, out: string): string {
  return join(cacheDir, "builds", `${createHash("sha256").update(out).digest("hex").slice(0, 32)}.json`);
}

/** The memo of `out`, or undefined when there is none usable (missing, unreadable, another format,
 *  another output or another renderer). */
export async function loadMemo(file: string, out: string, renderer: string): Promise<BuildMemo | undefined> {
  let json: MemoJson;
  try {
    json = JSON.parse(await readFile(file, "utf8")) as MemoJson;
  } catch {
    return undefined;
  }
  if (json?.format !== FORMAT || json.out !== out || json.renderer !== renderer) return undefined;
  try {
    const files = new Map<string, MemoFile>();
    for (const [dir, entries] of json.dirs) {
      const prefix = dir === "" ? "" : `${dir}/`;
      for (const [name, key, ino, size, mtimeMs] of entries) {
        const implied = key === 0 ? impliedKey(dir, name) : key;
        if (implied === undefined) return undefined;
        files.set(prefix + name, { key: implied, ident: [ino, size, mtimeMs] });
      }
    }
    const sources = new Map<number, Map<string, MemoPackage>>();
    for (const [index, packages] of json.sources)
      sources.set(index, new Map(packages.map(([key, pkg]) => [key, packageFromJson(key, pkg)])));
    return { out, renderer, files, sources };
  } catch {
    return undefined;
  }
}

/** Writes the memo (a temporary file renamed over the old one), piece by piece: the whole of it as
 *  one string would be the build's largest allocation. Files without identity are left out. */
export async function saveMemo(file: string, memo: BuildMemo): Promise<void> {
  const dirs = new Map<string, string[]>();
  for (const [path, { key, ident }] of memo.files) {
    if (ident === undefined || key === "") continue;
    const at = path.lastIndexOf("/");
    const dir = at < 0 ? "" : path.slice(0, at);
    const name = path.slice(at + 1);
    const entries = dirs.get(dir) ?? [];
    entries.push(JSON.stringify([name, impliedKey(dir, name) === key ? 0 : key, ...ident]));
    dirs.set(dir, entries);
  }
  const temp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  await mkdir(join(file, ".."), { recursive: true });
  const fd = openSync(temp, "w");
  let open = true;
  try {
    let chunk = "";
    const put = (text: string) => {
      chunk += text;
      if (chunk.length > 1 << 20) {
        writeSync(fd, chunk);
        chunk = "";
      }
    };
    put(
      `{"format":${FORMAT},"out":${JSON.stringify(memo.out)},"renderer":${JSON.stringify(memo.renderer)},"dirs":[`,
    );
    let first = true;
    for (const [dir, entries] of dirs) {
      put(`${first ? "" : ","}[${JSON.stringify(dir)},[${entries.join(",")}]]`);
      first = false;
    }
    dirs.clear();
    put('],"sources":[');
    first = true;
    for (const [index, packages] of memo.sources) {
      put(`${first ? "" : ","}[${index},[`);
      first = false;
      let firstPackage = true;
      for (const [key, pkg] of packages) {
        const json = packageToJson(key, pkg);
        if (json === undefined) continue;
        put(`${firstPackage ? "" : ","}${JSON.stringify([key, json])}`);
        firstPackage = false;
      }
      put("]]");
    }
    put("]}");
    writeSync(fd, chunk);
    closeSync(fd);
    open = false;
    await rename(temp, file);
  } finally {
    if (open) closeSync(fd);
    await rm(temp, { force: true });
  }
}

export async function removeMemo(file: string): Promise<void> {
  await rm(file, { force: true });
}

/**
 * Forgets the key of every file whose identity on disk is no longer the one recorded (edited,
 * replaced or removed since): such a file is never kept (nor a package one of whose files it is),
 * and is removed when the build does not produce it again.
 */
export function dropChangedFiles(memo: BuildMemo): number {
  let dropped = 0;
  for (const [path, entry] of memo.files) {
    if (entry.ident !== undefined && sameIdent(join(memo.out, path), entry.ident)) continue;
    memo.files.set(path, { key: "" });
    dropped++;
  }
  return dropped;
}

function sameIdent(path: string, [ino, size, mtimeMs]: FileIdent): boolean {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  return stats?.isFile() === true && stats.ino === ino && stats.size === size && stats.mtimeMs === mtimeMs;
}

export function identOf(stats: { ino: number; size: number; mtimeMs: number }): FileIdent {
  return [stats.ino, stats.size, stats.mtimeMs];
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}
