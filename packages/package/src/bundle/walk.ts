import { lstatSync, readdirSync, readlinkSync, type Stats, statSync } from "node:fs";
import { join } from "node:path";
import { dataError } from "@pkg/common";
import type { TarEntry } from "./tar-header.js";

/** A tar entry and the file it is read from. */
export interface SourceEntry extends TarEntry {
  source: string;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function decodeName(raw: Buffer, dir: string): string {
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

function toEntry(source: string, name: string, info: Stats, mtime: number): SourceEntry {
  if (info.isDirectory()) return { source, name: `${name}/`, type: "directory", mode: 0o755, size: 0, mtime };
  if (info.isFile()) {
    // hard links are stored as the regular files they are: each path carries its own content
    return { source, name, type: "file", mode: normalisedFileMode(info.mode), size: info.size, mtime };
  }
  if (info.isSymbolicLink()) {
    const linkname = decodeName(readlinkSync(source, { encoding: "buffer" }), source);
    return { source, name, type: "symlink", mode: 0o777, size: 0, linkname, mtime };
  }
  throw dataError(`${source}: is ${specialKind(info)}; a bundle holds only files, directories and symlinks`);
}

function sourceDirectory(root: string): void {
  let info: Stats;
  try {
    info = statSync(root);
  } catch (error) {
    throw dataError(`${root}: cannot read the source directory (${(error as Error).message})`);
  }
  if (!info.isDirectory()) throw dataError(`${root}: the source is not a directory`);
}

/** The entries of one directory, sorted by the UTF-8 bytes of their archive names. */
function listDirectory(absolute: string, prefix: string, mtime: number): SourceEntry[] {
  const children: { key: Buffer; entry: SourceEntry }[] = [];
  for (const raw of readdirSync(absolute, { encoding: "buffer" })) {
    const name = decodeName(raw, absolute);
    const source = join(absolute, name);
    const entry = toEntry(source, `${prefix}${name}`, lstatSync(source), mtime);
    children.push({ key: Buffer.from(entry.name, "utf8"), entry });
  }
  return children.sort((a, b) => Buffer.compare(a.key, b.key)).map(({ entry }) => entry);
}

function* walkDirectory(absolute: string, prefix: string, mtime: number): Generator<SourceEntry> {
  for (const entry of listDirectory(absolute, prefix, mtime)) {
    yield entry;
    if (entry.type === "directory") yield* walkDirectory(entry.source, entry.name, mtime);
  }
}

/**
 * Every entry below `root` (not `root` itself), in the byte order of the UTF-8 of their archive
 * names, with normalised modes and the given mtime; symlinks are recorded, never followed.
 * Directory names end with `/`, so sorting each directory and descending in place gives the order
 * of a sort of all paths, and the walk can be lazy: the tar stream starts before the tree is listed.
 * Synchronous on purpose: an lstat per file costs less as a plain system call than as a round
 * trip through the thread pool.
 */
export function* walkTree(root: string, mtime: number): Generator<SourceEntry> {
  sourceDirectory(root);
  yield* walkDirectory(root, "", mtime);
}
