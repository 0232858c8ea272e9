import { createHash } from "node:crypto";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { dataError, writeAtomically } from "@pkg/common";
import { parseDigest } from "@pkg/oci/documents";
import { blobPath, type Store } from "./home.js";

/** Whether `bytes` hash to `digest` (sha256 or sha512). */
export function matchesDigest(bytes: Buffer, digest: string): boolean {
  const parsed = parseDigest(digest);
  return parsed !== undefined && createHash(parsed.algorithm).update(bytes).digest("hex") === parsed.hex;
}

/**
 * The stored bytes of `digest`, checked against it; undefined when the store does not have them.
 * Bytes that no longer match (a damaged file) are removed and count as absent.
 */
export async function readBlob(store: Store, digest: string): Promise<Buffer | undefined> {
  const path = blobPath(store, digest);
  const bytes = await readFile(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (bytes === undefined || matchesDigest(bytes, digest)) return bytes;
  await rm(path, { force: true });
  return undefined;
}

/**
 * Stores `bytes` under `digest` after checking that they hash to it (exit 65 otherwise): written
 * to a temporary name beside and renamed, so a reader sees the whole blob or none. Two writers of
 * one blob write the same bytes; the last rename wins, harmlessly. A blob of that size already
 * there is kept (it is checked whenever it is read).
 */
export async function writeBlob(store: Store, digest: string, bytes: Buffer): Promise<void> {
  if (!matchesDigest(bytes, digest)) throw dataError(`content does not match its digest ${digest}`);
  const path = blobPath(store, digest);
  if ((await stat(path).catch(() => undefined))?.size === bytes.length) return;
  await mkdir(dirname(path), { recursive: true });
  await writeAtomically(path, "blob", (temp) => writeFile(temp, bytes));
}
