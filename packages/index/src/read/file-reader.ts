import { sha256Of } from "../digest.js";
import { IndexFileError } from "./errors.js";

export interface ReadRequest {
  /** The file's size cap; larger files are refused with an IndexFileError. */
  maxBytes: number;
  /** When given, the bytes must hash to it (else IndexFileError); a reader may answer from a cache. */
  digest?: string;
}

/** Reads the files of one index tree by index-relative path (`config.json`, `p/<ns>/<pkg>.json`). */
export interface IndexFileReader {
  /** How a file of this tree is named in messages: a local path or a URL. */
  describe(relPath: string): string;
  /** The file's bytes, or undefined when it does not exist. Throws IndexFileError for a file that
   *  must not be used, and PkgError (exit 69/74) when the tree cannot be read at all. */
  read(relPath: string, request: ReadRequest): Promise<Uint8Array | undefined>;
  /** The first of `relPaths` (one object under several possible names) that exists. */
  readFirst(relPaths: readonly string[], request: ReadRequest): Promise<FoundFile | undefined>;
}

export interface FoundFile {
  relPath: string;
  bytes: Uint8Array;
}

/** The extension of an index-relative file name: `json`, `md`, `svg`, `png`. */
export const extensionOf = (relPath: string) => relPath.slice(relPath.lastIndexOf(".") + 1);

/** `readFirst` by trying each name in turn. */
export async function readFirstInOrder(
  read: IndexFileReader["read"],
  relPaths: readonly string[],
  request: ReadRequest,
): Promise<FoundFile | undefined> {
  for (const relPath of relPaths) {
    const bytes = await read(relPath, request);
    if (bytes !== undefined) return { relPath, bytes };
  }
  return undefined;
}

/** Throws unless `bytes` hash to `digest` (when one is expected). */
export function verifyDigest(where: string, bytes: Uint8Array, digest: string | undefined): void {
  if (digest === undefined) return;
  const actual = sha256Of(bytes);
  if (actual !== digest) throw new IndexFileError(where, `content is ${actual}, expected ${digest}`);
}
