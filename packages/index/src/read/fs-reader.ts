import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
} from "node:fs";
import { realpath } from "node:fs/promises";
import { resolve, sep } from "node:path";
import { ExitCode, isInside, PkgError } from "@pkg/common";
import { sha256Of } from "../digest.js";
import { IndexFileError } from "./errors.js";
import { type IndexFileReader, type ReadRequest, readFirstInOrder, verifyDigest } from "./file-reader.js";

const MISSING = new Set(["ENOENT", "ENOTDIR"]);
// O_NOFOLLOW: a file that is itself a link is opened only through its checked real path.
// O_NONBLOCK: opening a FIFO planted in the tree must not hang the build.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Reads done in a row before the reader lets the event loop run (each is a few blocking calls). */
const READS_PER_TURN = 64;

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** A reader of a local index tree; `realpaths` counts the real paths it resolved (one per
 *  directory on the way to a file read, plus one per file or directory that is a link). */
export interface FsIndexReader extends IndexFileReader {
  readonly realpaths: number;
}

/**
 * A reader of a local index tree that never reads outside the real path of `rootDir`. Each
 * directory's real path is resolved and checked once; a file is opened as an entry of that real
 * directory without following a link, a file that is a link through its own checked real path, and
 * the opened descriptor is checked again (closing the race with a path changed meanwhile).
 *
 * Reads are blocking calls (several times cheaper than the thread pool's round trips for the small
 * files of an index), with a turn of the event loop every few reads.
 */
export async function createFsReader(rootDir: string, shownAs: string = rootDir): Promise<FsIndexReader> {
  let realRoot: string;
  try {
    realRoot = await realpath(rootDir);
  } catch (error) {
    const code = errnoOf(error);
    if (code !== undefined && MISSING.has(code)) {
      throw new PkgError(ExitCode.Data, `${shownAs}: index directory does not exist`);
    }
    throw new PkgError(ExitCode.IoError, `${shownAs}: cannot read the index directory (${code ?? error})`);
  }
  const describe = (relPath: string) => `${shownAs.replace(/\/+$/, "")}/${relPath}`;
  const tree = new ContainedTree(realRoot, describe);
  // every read waits for the turn once READS_PER_TURN were done since the last one: reads started
  // at once (a walk's) would otherwise run on in microtasks, never letting the event loop turn
  let reads = 0;
  let turn: Promise<void> | undefined;
  const read: IndexFileReader["read"] = async (relPath, request) => {
    if (turn === undefined && ++reads >= READS_PER_TURN) {
      reads = 0;
      turn = new Promise((next) => setImmediate(next)).then(() => {
        turn = undefined;
      });
    }
    if (turn !== undefined) await turn;
    return tree.read(relPath, request);
  };
  return {
    describe,
    read,
    readFirst: (relPaths, request) => readFirstInOrder(read, relPaths, request),
    get realpaths() {
      return tree.realpaths;
    },
  };
}

class ContainedTree {
  realpaths = 0;
  /** Real paths of the directories read from, by lexical path (each checked inside the root). */
  private readonly dirs = new Map<string, string>();

  constructor(
    private readonly realRoot: string,
    private readonly describe: (relPath: string) => string,
  ) {}

  read(relPath: string, request: ReadRequest): Uint8Array | undefined {
    // how the file is named in messages, made only for one
    const where = () => this.describe(relPath);
    const lexical = resolve(this.realRoot, relPath);
    if (!isInside(this.realRoot, lexical)) throw new IndexFileError(where(), "path leaves the index");
    const at = lexical.lastIndexOf(sep);
    const dir = lexical.slice(0, at);
    let fd: number | undefined;
    if (lexical !== this.realRoot && (dir === this.realRoot || isInside(this.realRoot, dir))) {
      const realDir = this.realDir(dir, where);
      if (realDir === undefined) return undefined;
      try {
        fd = openSync(realDir + lexical.slice(at), OPEN_FLAGS);
      } catch (error) {
        // ELOOP: the entry is a link, resolved below like any path
        if (errnoOf(error) !== "ELOOP") return failedAccess(where, error);
      }
    }
    if (fd === undefined) {
      const real = this.realpath(lexical, where);
      if (real === undefined) return undefined;
      try {
        fd = openSync(real, OPEN_FLAGS);
      } catch (error) {
        return failedAccess(where, error);
      }
    }
    try {
      checkOpenedPath(fd, this.realRoot, where);
      const bytes = readCapped(fd, where, request.maxBytes);
      if (request.digest !== undefined && sha256Of(bytes) !== request.digest)
        verifyDigest(where(), bytes, request.digest);
      return bytes;
    } finally {
      closeSync(fd);
    }
  }

  /**
   * The real path of `dir` (lexically inside the root, or the root), checked inside the root;
   * undefined when it does not exist. A directory under a resolved one that is no link is its real
   * parent's entry (one lstat); anything else is resolved whole.
   */
  private realDir(dir: string, where: LazyName): string | undefined {
    if (dir === this.realRoot) return this.realRoot;
    const known = this.dirs.get(dir);
    if (known !== undefined) return known;
    const at = dir.lastIndexOf(sep);
    const realParent = this.realDir(dir.slice(0, at), where);
    if (realParent === undefined) return undefined;
    let real: string | undefined;
    try {
      const entry = realParent + dir.slice(at);
      if (lstatSync(entry).isDirectory()) {
        this.realpaths++;
        real = entry;
      }
    } catch (error) {
      return failedAccess(where, error);
    }
    real ??= this.realpath(dir, where);
    if (real !== undefined) this.dirs.set(dir, real);
    return real;
  }

  /** The real path of `path`, checked inside the root; undefined when it does not exist. */
  private realpath(path: string, where: LazyName): string | undefined {
    let real: string;
    try {
      this.realpaths++;
      real = realpathSync.native(path);
    } catch (error) {
      return failedAccess(where, error);
    }
    if (!isInside(this.realRoot, real)) throw new IndexFileError(where(), "links outside the index");
    return real;
  }
}

/** A file's name in messages, made when a message needs it. */
type LazyName = () => string;

function failedAccess(where: LazyName, error: unknown): undefined {
  const code = errnoOf(error);
  if (code !== undefined && MISSING.has(code)) return undefined;
  if (code === "ELOOP") throw new IndexFileError(where(), "symbolic link loop");
  throw new PkgError(ExitCode.IoError, `${where()}: cannot read (${code ?? String(error)})`);
}

/** Closes the race between resolving a path and opening it: /proc shows what the descriptor is. */
function checkOpenedPath(fd: number, realRoot: string, where: LazyName): void {
  let opened: string;
  try {
    opened = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return;
  }
  if (!isInside(realRoot, opened)) throw new IndexFileError(where(), "links outside the index");
}

function readCapped(fd: number, where: LazyName, maxBytes: number): Uint8Array {
  const stat = fstatSync(fd);
  if (!stat.isFile()) throw new IndexFileError(where(), "not a regular file");
  if (stat.size > maxBytes)
    throw new IndexFileError(where(), `${stat.size} bytes, more than the ${maxBytes} allowed`);
  // One byte of room past the stated size reveals a file that grew after stat. A regular file
  // answers a read in full up to its end, so one call is enough.
  const buffer = new Uint8Array(stat.size + 1);
  const filled = readSync(fd, buffer, 0, buffer.length, 0);
  if (filled > stat.size) {
    if (filled > maxBytes) throw new IndexFileError(where(), `more than the ${maxBytes} bytes allowed`);
    throw new IndexFileError(where(), "changed while being read");
  }
  return buffer.subarray(0, filled);
}
