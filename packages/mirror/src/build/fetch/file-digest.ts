import { forEachFileChunk } from "@pkg/common";
import { type DigestAlgorithm, DigestSet } from "./digest.js";

/** Hashes a file with each algorithm, reading it once. */
export async function fileDigests(
  path: string,
  algorithms: Iterable<DigestAlgorithm>,
): Promise<Map<DigestAlgorithm, string>> {
  const hashes = new DigestSet(algorithms);
  await forEachFileChunk(path, (chunk) => hashes.update(chunk));
  return hashes.digest();
}
