import { createReadStream } from "node:fs";
import { type DigestAlgorithm, DigestSet } from "./digest.js";

/** Hashes a file with each algorithm, reading it once. */
export async function fileDigests(
  path: string,
  algorithms: Iterable<DigestAlgorithm>,
): Promise<Map<DigestAlgorithm, string>> {
  const hashes = new DigestSet(algorithms);
  for await (const chunk of createReadStream(path)) hashes.update(chunk as Buffer);
  return hashes.digest();
}
