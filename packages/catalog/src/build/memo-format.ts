import { closeSync, openSync, readFileSync, readSync, writeSync, writevSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { renameIntoPlace } from "@pkg/common";

// The memo's files as bytes (memo-file.ts says what they hold and how a build uses them): the
// header, the file columns, the package lines; read here into columns, written from them.

/** Format of the memo file; a memo of another format is ignored. */
export const FORMAT = 7;

/**
 * A memo is two files: a base file, written when a site is built anew (or its changes since have
 * grown large), and the memo file proper, which names its base and records only what differs from
 * it (the files and packages added or changed since, and those gone). A rebuild after one changed
 * package so writes a few kilobytes instead of the whole memo (40 MB at 10,000 packages, a tenth of
 * the rebuild), and a base file is never written over: a memo file that names a base is renamed into
 * place as it always was (see commit-journal.ts).
 *
 * Both files have one format: a JSON header line, then the files as three sections (their paths,
 * one a line; their keys, one a line, empty for the content address an index object's name holds;
 * their identities as float64 triples), a memo file's removed paths (one a line), then the
 * packages, one line each. Columns read and written in a few calls each: a JSON array per file made
 * loading and saving the memo of a 10,000-package site take most of a rebuild.
 *
 * The site files of each package's index files (see `outputsOf`) come first, package after
 * package, and a package's line starts with where its files start and how many there are
 * (`<at>\t<count>\t<json>\t<rest of its view>`): a loaded package knows its files' entries
 * without looking up a hundred thousand paths, which checking and keeping them by path took a
 * fifth of a rebuild. A rebuild parses the JSON (with the view's summary) of every package, the
 * rest of a view only for a page it renders.
 */
export interface MemoHeader {
  format: number;
  out: string;
  renderer: string;
  files: number;
  pathBytes: number;
  keyBytes: number;
  /** A base file's id, which the memo files made against it name. */
  id?: string;
  /** A memo file's base: the file beside it, with that id. */
  base?: { name: string; id: string };
  /** A memo file's section of the base's paths it no longer records. */
  removedBytes?: number;
  /** The base's packages (source, key) it no longer records. */
  removedPackages?: [number, string][];
}

/**
 * Whether `key` is the one `path` implies, without building strings: at 100,000 files a memo's
 * load and save did little else. `key` is a digest a memo was saved with, so its 64 characters after
 * `sha256:` are hex; the name must start with them and a dot, in an `o/sha256` directory.
 */
export function impliesKey(path: string, key: string): boolean {
  const at = path.lastIndexOf("/");
  return (
    key.length === 71 &&
    key.startsWith("sha256:") &&
    path.length > at + 66 &&
    path.charCodeAt(at + 65) === 46 &&
    path.startsWith(key.slice(7), at + 1) &&
    path.endsWith("/o/sha256", at)
  );
}

/** The key of a file the memo saved with an empty key: the one its path implies (see impliesKey). */
export function savedImpliedKey(path: string): string {
  const at = path.lastIndexOf("/");
  return `sha256:${path.slice(at + 1, at + 65)}`;
}

/** Where the sections of a memo file start, from its header line (`headerEnd` is its newline);
 *  undefined when it is not a memo of this format. */
function layoutOf(headerLine: string, headerEnd: number) {
  const header = JSON.parse(headerLine) as MemoHeader;
  if (header?.format !== FORMAT) return undefined;
  const pathsAt = headerEnd + 1;
  const keysAt = pathsAt + header.pathBytes;
  const identsAt = keysAt + header.keyBytes;
  const removedAt = identsAt + header.files * 3 * 8;
  return { header, pathsAt, keysAt, identsAt, removedAt, packagesAt: removedAt + (header.removedBytes ?? 0) };
}

/** The lines of a section of `count` lines (an empty section has one empty line, or none). */
function linesOf(bytes: Buffer, from: number, to: number, count: number): string[] {
  return count === 0 && from === to ? [] : bytes.toString("utf8", from, to).split("\n");
}

export interface MemoColumns {
  header: MemoHeader;
  paths: string[];
  keys: string[];
  idents: Float64Array;
  /** A memo file's removed paths. */
  removed: string[];
  packagesAt: number;
}

/** The files of a memo file as its columns (paths, keys, identities), its removed paths, and where
 *  its packages start; undefined when it is not a memo of this format. */
export function memoColumns(bytes: Buffer): MemoColumns | undefined {
  const headerEnd = bytes.indexOf(10);
  const layout = layoutOf(bytes.toString("utf8", 0, headerEnd), headerEnd);
  if (layout === undefined) return undefined;
  const { header, pathsAt, keysAt, identsAt, removedAt, packagesAt } = layout;
  const paths = linesOf(bytes, pathsAt, keysAt, header.files);
  const keys = linesOf(bytes, keysAt, identsAt, header.files);
  // copied out: a Float64Array needs an aligned start
  const idents = new Float64Array(
    bytes.buffer.slice(bytes.byteOffset + identsAt, bytes.byteOffset + removedAt),
  );
  if (paths.length !== header.files || keys.length !== header.files || idents.length !== header.files * 3)
    return undefined;
  // removed paths are never empty: an empty section has none
  return { header, paths, keys, idents, removed: linesOf(bytes, removedAt, packagesAt, 0), packagesAt };
}

/** The file columns of the memo `file`'s base (see memoColumns), read without its packages (half
 *  the file, which the identity worker has no use for); undefined when it is not a memo of this
 *  format. */
export function readMemoColumns(file: string): MemoColumns | undefined {
  const ref = memoColumns(readFileSync(file))?.header.base;
  if (ref === undefined || !isBaseName(ref.name, file)) return undefined;
  const fd = openSync(join(dirname(file), ref.name), "r");
  try {
    const head = Buffer.alloc(64 * 1024);
    const headBytes = readSync(fd, head, 0, head.length, 0);
    const headerEnd = head.subarray(0, headBytes).indexOf(10);
    const layout = headerEnd < 0 ? undefined : layoutOf(head.toString("utf8", 0, headerEnd), headerEnd);
    if (layout === undefined || layout.header.id !== ref.id) return undefined;
    const { packagesAt } = layout;
    const bytes = Buffer.allocUnsafe(packagesAt);
    for (let done = 0; done < packagesAt; ) {
      const read = readSync(fd, bytes, done, packagesAt - done, done);
      if (read === 0) return undefined;
      done += read;
    }
    return memoColumns(bytes);
  } finally {
    closeSync(fd);
  }
}

/** The memo file `file`'s own name without `.json` (and `.pending`): what its base files' names
 *  start with. */
export function stemOf(file: string): string {
  return basename(file)
    .replace(/\.pending$/, "")
    .replace(/\.json$/, "");
}

export function isBaseName(name: string, file: string): boolean {
  return /^[^/\\]+\.base-[0-9a-f]{16}\.json$/.test(name) && name.startsWith(`${stemOf(file)}.base-`);
}

/** What a memo file holds besides its header: the files as columns, and the package lines. */
export interface MemoSections {
  readonly paths: readonly string[];
  readonly keys: readonly string[];
  readonly idents: Float64Array;
  readonly lines: readonly PackageLine[];
}

/** Writes a memo file (see MemoHeader): a temporary file renamed over `file`. */
export async function writeMemoFile(
  file: string,
  own: Omit<MemoHeader, "files" | "pathBytes" | "keyBytes" | "removedBytes">,
  { paths, keys, idents, lines }: MemoSections,
  removed: readonly string[],
): Promise<void> {
  const pathText = paths.join("\n");
  const keyText = keys.join("\n");
  const removedText = removed.join("\n");
  const header: MemoHeader = {
    ...own,
    files: paths.length,
    pathBytes: Buffer.byteLength(pathText),
    keyBytes: Buffer.byteLength(keyText),
    ...(removed.length === 0 ? {} : { removedBytes: Buffer.byteLength(removedText) }),
  };
  await renameIntoPlace(file, async (temp) => {
    const fd = openSync(temp, "w");
    try {
      writeAll(fd, `${JSON.stringify(header)}\n`);
      writeAll(fd, pathText);
      writeAll(fd, keyText);
      writeAll(fd, new Uint8Array(idents.buffer, 0, paths.length * 3 * 8));
      writeAll(fd, removedText);
      writeLines(fd, lines);
    } finally {
      closeSync(fd);
    }
  });
}

/** A package's line as saveMemo writes it: where its files start and how many, then the line. */
export type PackageLine = [start: string, line: Uint8Array | (() => string)];

/** Writes the lines a batch at a time: the loaded lines go out as the bytes they were read as,
 *  never encoded again. */
function writeLines(fd: number, lines: readonly PackageLine[]): void {
  const newline = Buffer.from("\n");
  let batch: Uint8Array[] = [];
  const flush = () => {
    let bytes = batch.reduce((n, piece) => n + piece.byteLength, 0);
    while (bytes > 0) {
      let written = writevSync(fd, batch);
      bytes -= written;
      // a short write: what is left of the batch goes again
      while (batch.length > 0 && written >= (batch[0] as Uint8Array).byteLength) {
        written -= (batch.shift() as Uint8Array).byteLength;
      }
      if (written > 0) batch[0] = (batch[0] as Uint8Array).subarray(written);
    }
    batch = [];
  };
  for (const [start, line] of lines) {
    batch.push(Buffer.from(start), typeof line === "function" ? Buffer.from(line()) : line, newline);
    // IOV_MAX is 1024 on Linux
    if (batch.length >= 1020) flush();
  }
  flush();
}

function writeAll(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  for (let done = 0; done < bytes.byteLength; ) done += writeSync(fd, bytes, done, bytes.byteLength - done);
}
