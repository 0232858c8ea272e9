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

function compareNames(a: { key: Buffer }, b: { key: Buffer }): number {
  return Buffer.compare(a.key, b.key);
}

function directoryInfo(root: string): Stats {
  try {
    return statSync(root);
  } catch (error) {
    throw dataError(`${root}: cannot read the source directory (${(error as Error).message})`);
  }
}

/**
 * Every entry below `root` (not `root` itself), sorted by the UTF-8 bytes of its archive name,
 * with normalised modes and the given mtime. Symlinks are recorded, never followed.
 * Synchronous on purpose: one lstat per file is cheaper as a plain system call than as a
 * round trip through the thread pool, and nothing else runs while a bundle is listed.
 */
export function walkTree(root: string, mtime: number): SourceEntry[] {
  if (!directoryInfo(root).isDirectory()) throw dataError(`${root}: the source is not a directory`);

  const found: { key: Buffer; entry: SourceEntry }[] = [];
  const pending = [""];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    const absolute = join(root, dir);
    for (const raw of readdirSync(absolute, { encoding: "buffer" })) {
      const name = decodeName(raw, absolute);
      const source = join(absolute, name);
      const entry = toEntry(source, dir === "" ? name : `${dir}/${name}`, lstatSync(source), mtime);
      if (entry.type === "directory") pending.push(entry.name.slice(0, -1));
      found.push({ key: Buffer.from(entry.name, "utf8"), entry });
    }
  }
  return found.sort(compareNames).map(({ entry }) => entry);
}
