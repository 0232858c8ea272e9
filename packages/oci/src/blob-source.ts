import { sha256Digest } from "./digest.js";
import type { BlobSource } from "./types.js";

/** A blob held in memory (configs, descriptions, small documents) as an upload source. */
export function memoryBlob(bytes: Buffer): BlobSource {
  return { digest: sha256Digest(bytes), size: bytes.length, open: () => bytes };
}
