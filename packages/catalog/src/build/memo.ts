import { hash } from "node:crypto";
import { lstatSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { PackageSummary, PackageView } from "../site/model/types.js";

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
  /** Inode, size, mtimeMs when written; undefined for a file whose identity is not checked (dev),
   *  or one changed since (see forget). */
  ident?: FileIdent | undefined;
  /** The build that last produced or kept it (a build updating its output in place marks what it
   *  keeps, and removes the rest); never saved. */
  seen?: number;
}

/** Where a loaded entry's key and identity are read from when first asked (see LoadedFile). */
export interface FileRows {
  keyOf(row: number): string;
  identOf(row: number): FileIdent;
}

/**
 * An entry loaded from a memo file, whose key and identity are read from the loaded columns when
 * first asked: a rebuild keeps most files through their packages (see intactOutputs) and never
 * asks, and a hundred thousand keys and identities made at load were much of its garbage.
 */
export class LoadedFile implements MemoFile {
  seen?: number;
  readonly #rows: FileRows;
  readonly #row: number;
  #key: string | undefined;
  /** null until read. */
  #ident: FileIdent | undefined | null = null;

  constructor(rows: FileRows, row: number) {
    this.#rows = rows;
    this.#row = row;
  }

  get key(): string {
    this.#key ??= this.#rows.keyOf(this.#row);
    return this.#key;
  }

  set key(key: string) {
    this.#key = key;
  }

  get ident(): FileIdent | undefined {
    if (this.#ident === null) this.#ident = this.#rows.identOf(this.#row);
    return this.#ident;
  }

  set ident(ident: FileIdent | undefined) {
    this.#ident = ident;
  }

  /** Whether it was loaded from `rows`. */
  isFrom(rows: FileRows): boolean {
    return this.#rows === rows;
  }

  /** forget()'s mark, seen without making the key. */
  get forgotten(): boolean {
    return this.#key === "";
  }
}

/** Whether `entry` is one changed since (see forget). */
export function isForgotten(entry: MemoFile): boolean {
  return entry instanceof LoadedFile ? entry.forgotten : entry.key === "";
}

export type FileIdent = [ino: number, size: number, mtimeMs: number];

export interface MemoPackage {
  /** The root digest from c/index.json. */
  digest: string;
  /** The index label it was read under. */
  label: string;
  /** The index context it was viewed in (root flag, owner links): viewed again when it changes. */
  context: string;
  /** What the site's lists show of it (the view itself, for a package read by this process). */
  summary: PackageSummary;
  /** Its whole view: a loaded package's is parsed from the memo when first asked (a rebuild asks
   *  for the few whose pages it renders). */
  view: () => PackageView;
  /** sha256 of the view's JSON (part of its page's key). */
  viewHash: string;
  /** Its README's index path, when it has one. */
  readme?: string;
  /** Its index files (index-relative paths) with their keys. */
  files: [string, string][];
}

/**
 * The site paths and keys of a package's index files: each under `index/<label>/`, and for the
 * root index at the site root too. A process keeping its memos (dev) makes them once per entry.
 */
const outputs = new WeakMap<MemoPackage, { root: boolean; paths: [string, string][] }>();

export function outputsOf(memo: MemoPackage, root: boolean): [string, string][] {
  const made = outputs.get(memo);
  if (made?.root === root) return made.paths;
  const base = `index/${memo.label}`;
  const paths: [string, string][] = [];
  for (const [path, key] of memo.files) {
    paths.push([`${base}/${path}`, key]);
    if (root) paths.push([path, key]);
  }
  outputs.set(memo, { root, paths });
  return paths;
}

/** Where the memo of the output `out` (a real path) lives: in the cache directory, never in the
 *  output (it would be deployed with the site). */
export function memoFile(cacheDir: string, out: string): string {
  return join(cacheDir, "builds", `${sha256Hex(out).slice(0, 32)}.json`);
}

/** The paths, from those at the indices `next` hands out (`chunk` at a time), whose file under
 *  `out` is no longer the one recorded. */
export function changedPaths(
  out: string,
  paths: readonly string[],
  idents: Float64Array,
  next: () => number,
  chunk: number,
): string[] {
  const changed: string[] = [];
  const under = outPrefix(out);
  for (let start = next(); start < paths.length; start = next()) {
    const end = Math.min(start + chunk, paths.length);
    for (let i = start; i < end; i++) {
      // checked through its first name's link count (see isSecondName)
      if (isSecondName(paths, idents, i)) continue;
      const path = paths[i] as string;
      const ident: FileIdent = [idents[3 * i] ?? 0, idents[3 * i + 1] ?? 0, idents[3 * i + 2] ?? 0];
      const links = isSecondName(paths, idents, i + 1) ? 2 : undefined;
      if (!sameIdent(under + path, ident, links)) changed.push(path);
    }
  }
  return changed;
}

/**
 * Whether the file at `i` is the root index's copy of the one before it: `index/<label>/<path>`
 * then `<path>`, recorded with the same identity (one inode with two names, as a build links them).
 * Its own lstat is left out: the first name is checked to have exactly two links, so the second
 * name removed or replaced shows as the count falling, and an edit in place as the shared inode's
 * size or mtime changing. (A second name linked again to the same inode is the same file.)
 */
function isSecondName(paths: readonly string[], idents: Float64Array, i: number): boolean {
  if (i < 1 || i >= paths.length) return false;
  const path = paths[i] as string;
  const first = paths[i - 1] as string;
  const at = first.length - path.length;
  return (
    at > "index/".length + 1 &&
    first.startsWith("index/") &&
    first.indexOf("/", "index/".length) === at - 1 &&
    first.endsWith(path) &&
    idents[3 * i] === idents[3 * i - 3] &&
    idents[3 * i + 1] === idents[3 * i - 2] &&
    idents[3 * i + 2] === idents[3 * i - 1]
  );
}

/**
 * `changed` (index files found changed since) with the second names of those whose root copy is
 * the same inode (see isSecondName): a change found through the first name is the second's too.
 */
export function withSecondNames(files: Map<string, MemoFile>, changed: readonly string[]): string[] {
  const all = [...changed];
  for (const path of changed) {
    if (!path.startsWith("index/")) continue;
    const at = path.indexOf("/", "index/".length);
    if (at < 0) continue;
    const second = files.get(path.slice(at + 1))?.ident;
    const first = files.get(path)?.ident;
    if (second !== undefined && first !== undefined && second.every((value, i) => value === first[i]))
      all.push(path.slice(at + 1));
  }
  return all;
}

/**
 * What the site paths of `out` (a real path) are appended to: a memo's paths are plain relative
 * paths (see isSafeRelativePath), and `path.join` on each of a hundred thousand of them took a
 * third of the time their lstat calls did. (A path that is not plain only gets its metadata read;
 * the writer never removes one, see planCommit.)
 */
function outPrefix(out: string): string {
  return out.endsWith("/") ? out : `${out}/`;
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
  const under = outPrefix(memo.out);
  for (const [path, entry] of memo.files) {
    if (entry.ident !== undefined && sameIdent(under + path, entry.ident)) continue;
    forget(entry);
    dropped++;
  }
  return dropped;
}

/** dropChangedFiles with the paths found changed elsewhere (see identity-check.ts). */
export function dropFiles(memo: BuildMemo, changed: readonly string[]): number {
  for (const path of changed) {
    const entry = memo.files.get(path);
    if (entry !== undefined) forget(entry);
  }
  return changed.length;
}

/** A file's entry as one changed since: in place, so a package holding it sees (intactOutputs). */
export function forget(entry: MemoFile): void {
  entry.key = "";
  entry.ident = undefined;
}

const noThrow = { throwIfNoEntry: false } as const;

/** Whether `path` is the file recorded (and has exactly `links` names, when given). */
function sameIdent(path: string, [ino, size, mtimeMs]: FileIdent, links?: number): boolean {
  const stats = lstatSync(path, noThrow);
  return (
    stats?.isFile() === true &&
    stats.ino === ino &&
    stats.size === size &&
    stats.mtimeMs === mtimeMs &&
    (links === undefined || stats.nlink === links)
  );
}

export function identOf(stats: { ino: number; size: number; mtimeMs: number }): FileIdent {
  return [stats.ino, stats.size, stats.mtimeMs];
}

/** One call, no Hash object: twice as fast on the short inputs a build hashes by the ten thousand
 *  (page keys). */
export function sha256Hex(data: string | Uint8Array): string {
  return hash("sha256", data, "hex");
}
