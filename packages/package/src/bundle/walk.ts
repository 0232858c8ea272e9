import { lstatSync, readdirSync, readlinkSync, type Stats, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { dataError } from "@pkg/common";
import { findEscapingLink, linkLeavesTree } from "./symlink-guard.js";
import type { TarEntry } from "./tar-header.js";

/** A tar entry and the file it is read from. */
export interface SourceEntry extends TarEntry {
  source: string;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function isAscii(raw: Buffer): boolean {
  for (const byte of raw) if (byte >= 0x80) return false;
  return true;
}

function decodeName(raw: Buffer, dir: string): string {
  if (isAscii(raw)) return raw.toString("latin1");
  try {
    return utf8.decode(raw);
  } catch {
    throw dataError(`${join(dir, raw.toString("latin1"))}: file name is not valid UTF-8`);
  }
}

function specialKind(info: Stats): string {
  if (info.isFIFO()) return "a FIFO";
  if (info.isSocket()) return "a socket";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  return "not a regular file";
}

/** Any execute bit makes a file 0755; everything else is 0644, so umask and chmod habits never show. */
export function normalisedFileMode(mode: number): number {
  return mode & 0o111 ? 0o755 : 0o644;
}

function directoryEntry(source: string, name: string, mtime: number): SourceEntry {
  return { source, name: `${name}/`, type: "directory", mode: 0o755, size: 0, mtime };
}

function toEntry(source: string, name: string, info: Stats, mtime: number): SourceEntry {
  if (info.isDirectory()) return directoryEntry(source, name, mtime);
  if (info.isFile()) {
    // hard links are stored as the regular files they are: each path carries its own content
    return { source, name, type: "file", mode: normalisedFileMode(info.mode), size: info.size, mtime };
  }
  if (info.isSymbolicLink()) {
    const linkname = decodeName(readlinkSync(source, { encoding: "buffer" }), source);
    if (linkLeavesTree(name, linkname)) throw escapingLink(source, linkname);
    return { source, name, type: "symlink", mode: 0o777, size: 0, linkname, mtime };
  }
  throw dataError(`${source}: is ${specialKind(info)}; a bundle holds only files, directories and symlinks`);
}

function escapingLink(source: string, target: string) {
  return dataError(
    `${source}: symlink to ${target} points outside the package tree; a package holds only links that stay inside it`,
  );
}

/**
 * Passes the entries on, and once they are all read checks that no symlink leads outside the tree
 * through the others (each was checked alone as it was read): the bundle is not complete before.
 */
function* checkedLinks(entries: Iterable<SourceEntry>): Generator<SourceEntry> {
  const links = new Map<string, SourceEntry>();
  for (const entry of entries) {
    if (entry.type === "symlink") links.set(entry.name, entry);
    yield entry;
  }
  const escaping = findEscapingLink(new Map([...links].map(([name, entry]) => [name, entry.linkname ?? ""])));
  const entry = escaping === undefined ? undefined : links.get(escaping);
  if (entry) throw escapingLink(entry.source, entry.linkname ?? "");
}

/** Checks that `root` is a directory that can be read, before anything is written. */
export function checkSourceDirectory(root: string): void {
  let info: Stats;
  try {
    info = statSync(root);
  } catch (error) {
    throw dataError(`${root}: cannot read the source directory (${(error as Error).message})`);
  }
  if (!info.isDirectory()) throw dataError(`${root}: the source is not a directory`);
}

interface WalkOptions {
  mtime: number;
  /** Absolute paths left out, such as the bundle being written when it is inside the tree. */
  exclude: ReadonlySet<string>;
}

const SURROGATE = /[\uD800-\uDFFF]/;

const byCodeUnits = (a: SourceEntry, b: SourceEntry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const byBytes = (a: SourceEntry, b: SourceEntry) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name));

/**
 * Sorts by the UTF-8 bytes of the names. Comparing UTF-16 code units gives the same order except
 * where a character beyond U+FFFF (a surrogate pair) meets one in U+E000..U+FFFF, so the bytes are
 * only compared when a surrogate is there.
 */
function sortByUtf8(entries: SourceEntry[]): SourceEntry[] {
  return entries.sort(entries.some((entry) => SURROGATE.test(entry.name)) ? byBytes : byCodeUnits);
}

/** The entries of one directory, sorted by the UTF-8 bytes of their archive names. */
function listDirectory(absolute: string, prefix: string, options: WalkOptions): SourceEntry[] {
  const { mtime, exclude } = options;
  const children: SourceEntry[] = [];
  for (const dirent of readdirSync(absolute, { encoding: "buffer", withFileTypes: true })) {
    const name = decodeName(dirent.name, absolute);
    // `absolute` is resolved and `name` has no slash: concatenation is the joined path, for less work
    const source = absolute.endsWith("/") ? `${absolute}${name}` : `${absolute}/${name}`;
    if (exclude.has(source)) continue;
    // a directory needs nothing from lstat: its mode is normalised and it has no size
    const entry = dirent.isDirectory()
      ? directoryEntry(source, `${prefix}${name}`, mtime)
      : toEntry(source, `${prefix}${name}`, lstatSync(source), mtime);
    children.push(entry);
  }
  return sortByUtf8(children);
}

function* walkDirectory(absolute: string, prefix: string, options: WalkOptions): Generator<SourceEntry> {
  for (const entry of listDirectory(absolute, prefix, options)) {
    yield entry;
    if (entry.type === "directory") yield* walkDirectory(entry.source, entry.name, options);
  }
}

/**
 * Every entry below `root` (not `root` itself), in the byte order of the UTF-8 of their archive
 * names, with normalised modes and the given mtime; symlinks are recorded, never followed.
 * Directory names end with `/`, so sorting each directory and descending in place gives the order
 * of a sort of all paths, and the walk can be lazy: the tar stream starts before the tree is listed.
 * Synchronous on purpose: an lstat per file costs less as a plain system call than as a round
 * trip through the thread pool. Paths in `exclude` are left out, whether absolute or relative.
 * A symlink that points outside the tree (an absolute target, or one that climbs out with `..`,
 * also through other links) is a data error naming it and its target: as it is met, or, for a
 * chain of links, once the last entry was read.
 */
export function walkTree(root: string, mtime: number, exclude: string[] = []): Iterable<SourceEntry> {
  checkSourceDirectory(root);
  const excluded = new Set(exclude.map((path) => resolve(path)));
  return checkedLinks(walkDirectory(resolve(root), "", { mtime, exclude: excluded }));
}
