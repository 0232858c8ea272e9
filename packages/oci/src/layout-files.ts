import { createReadStream, createWriteStream } from "node:fs";
import { copyFile, link, mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ExitCode, PkgError, renameIntoPlace, tempPathBeside } from "@pkg/common";
import { abortError } from "./abort.js";
import { requireDigest, VerifyingStream } from "./digest.js";

/** `<dir>/blobs/<algorithm>/<hex>`. */
export function blobPath(dir: string, digest: string): string {
  const { algorithm, hex } = requireDigest(digest, `blob in ${dir}`);
  return join(dir, "blobs", algorithm, hex);
}

/** The size of a file, or undefined when it does not exist. */
export async function fileSize(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Reads a file, or undefined when it does not exist. */
export async function readOptionalFile(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Creates `path` with `content` unless it exists, never exposing a half-written file. */
export async function createIfMissing(path: string, content: string): Promise<void> {
  const temp = tempPathBeside(path);
  await writeFile(temp, content, { mode: 0o644 });
  try {
    await link(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    await rm(temp, { force: true });
  }
}

/**
 * Writes a blob: streamed to a temp file in its directory while hashed and counted, then renamed
 * into place only when digest and size match (else a data error, exit 65, and nothing stored).
 * An abort of `signal` stops the copy and removes the temp file: nothing is stored.
 */
export async function writeVerifiedBlob(
  path: string,
  content: NodeJS.ReadableStream | Buffer,
  digest: string,
  size: number,
  what: string,
  signal?: AbortSignal,
): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  try {
    await renameIntoPlace(path, async (temp) => {
      const input = Buffer.isBuffer(content) ? Readable.from([content]) : content;
      const verifier = new VerifyingStream(digest, size, what);
      const output = createWriteStream(temp, { mode: 0o644 });
      await pipeline(input, verifier, output, signal === undefined ? {} : { signal });
      signal?.throwIfAborted();
    });
  } catch (error) {
    if (signal?.aborted) throw abortError(signal, what);
    throw error;
  }
}

/** Hard-links `from` to `to` through a temp name (copying when linking is refused), then renames it into place. */
export async function linkOrCopy(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  await renameIntoPlace(to, async (temp) => {
    try {
      await link(from, temp);
    } catch {
      await copyFile(from, temp);
    }
  });
}

/** A verified read stream of a stored blob; a missing blob is a data error (exit 65). */
export async function openVerifiedBlob(
  path: string,
  digest: string,
  expectedSize: number | undefined,
  what: string,
): Promise<NodeJS.ReadableStream> {
  const size = await fileSize(path);
  if (size === undefined) throw new PkgError(ExitCode.Data, `${what}: not in the layout`);
  if (expectedSize !== undefined && size !== expectedSize) {
    throw new PkgError(ExitCode.Data, `${what}: stored with ${size} bytes, expected ${expectedSize}`);
  }
  const verifier = new VerifyingStream(digest, expectedSize ?? size, what);
  const file = createReadStream(path);
  file.on("error", (error) => verifier.destroy(error));
  file.pipe(verifier);
  return verifier;
}
