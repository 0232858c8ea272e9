import { constants } from "node:fs";
import { type FileHandle, open, readlink, realpath } from "node:fs/promises";
import { resolve } from "node:path";
import { ExitCode, isInside, PkgError } from "@pkg/common";
import { IndexFileError } from "./errors.js";
import { type IndexFileReader, type ReadRequest, readFirstInOrder, verifyDigest } from "./file-reader.js";

const MISSING = new Set(["ENOENT", "ENOTDIR"]);
// O_NONBLOCK: opening a FIFO planted in the tree must not hang the build.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** A reader of a local index tree that never reads outside the real path of `rootDir`: each file's
 *  real path is checked before it is opened, and the opened descriptor is checked again. */
export async function createFsReader(rootDir: string, shownAs: string = rootDir): Promise<IndexFileReader> {
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
  const read: IndexFileReader["read"] = (relPath, request) =>
    readContained(realRoot, relPath, describe(relPath), request);
  return { describe, read, readFirst: (relPaths, request) => readFirstInOrder(read, relPaths, request) };
}

async function readContained(
  realRoot: string,
  relPath: string,
  where: string,
  request: ReadRequest,
): Promise<Uint8Array | undefined> {
  const lexical = resolve(realRoot, relPath);
  if (!isInside(realRoot, lexical)) throw new IndexFileError(where, "path leaves the index");
  let real: string;
  try {
    real = await realpath(lexical);
  } catch (error) {
    return failedAccess(where, error);
  }
  if (!isInside(realRoot, real)) throw new IndexFileError(where, "links outside the index");
  let handle: FileHandle;
  try {
    handle = await open(real, OPEN_FLAGS);
  } catch (error) {
    return failedAccess(where, error);
  }
  try {
    await checkOpenedPath(handle, realRoot, where);
    const bytes = await readCapped(handle, where, request.maxBytes);
    verifyDigest(where, bytes, request.digest);
    return bytes;
  } finally {
    await handle.close();
  }
}

function failedAccess(where: string, error: unknown): undefined {
  const code = errnoOf(error);
  if (code !== undefined && MISSING.has(code)) return undefined;
  if (code === "ELOOP") throw new IndexFileError(where, "symbolic link loop");
  throw new PkgError(ExitCode.IoError, `${where}: cannot read (${code ?? String(error)})`);
}

/** Closes the race between realpath and open: where /proc shows what the descriptor really is. */
async function checkOpenedPath(handle: FileHandle, realRoot: string, where: string): Promise<void> {
  let opened: string;
  try {
    opened = await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return;
  }
  if (!isInside(realRoot, opened)) throw new IndexFileError(where, "links outside the index");
}

async function readCapped(handle: FileHandle, where: string, maxBytes: number): Promise<Uint8Array> {
  const stat = await handle.stat();
  if (!stat.isFile()) throw new IndexFileError(where, "not a regular file");
  if (stat.size > maxBytes)
    throw new IndexFileError(where, `${stat.size} bytes, more than the ${maxBytes} allowed`);
  // One byte of room past the stated size reveals a file that grew after stat. A regular file
  // answers a read in full up to its end, so one call is enough.
  const buffer = new Uint8Array(stat.size + 1);
  const { bytesRead: filled } = await handle.read(buffer, 0, buffer.length, 0);
  if (filled > stat.size) {
    if (filled > maxBytes) throw new IndexFileError(where, `more than the ${maxBytes} bytes allowed`);
    throw new IndexFileError(where, "changed while being read");
  }
  return buffer.subarray(0, filled);
}
