import { createHash, type Hash } from "node:crypto";

export const DIGEST_ALGORITHMS = ["sha256", "sha384", "sha512"] as const;
export type DigestAlgorithm = (typeof DIGEST_ALGORITHMS)[number];

const HEX_LENGTH: Record<DigestAlgorithm, number> = { sha256: 64, sha384: 96, sha512: 128 };

/** A content digest: algorithm and lower-case hex. */
export interface Digest {
  algorithm: DigestAlgorithm;
  hex: string;
}

export function formatDigest(digest: Digest): string {
  return `${digest.algorithm}:${digest.hex}`;
}

/**
 * Reads `<algorithm>:<hex>` (sha256, sha384 or sha512), or bare hex of a sha256's length; hex in
 * either case. Anything else is undefined.
 */
export function parseDigest(text: string): Digest | undefined {
  const match = /^(?:([a-z0-9]+):)?([0-9a-fA-F]+)$/.exec(text.trim());
  if (!match) return undefined;
  const algorithm = (match[1] ?? "sha256") as DigestAlgorithm;
  const hex = (match[2] ?? "").toLowerCase();
  if (!DIGEST_ALGORITHMS.includes(algorithm) || hex.length !== HEX_LENGTH[algorithm]) return undefined;
  return { algorithm, hex };
}

/** Hashes one byte stream with several algorithms at once. */
export class DigestSet {
  private readonly hashes: Map<DigestAlgorithm, Hash>;

  constructor(algorithms: Iterable<DigestAlgorithm>) {
    this.hashes = new Map([...new Set(algorithms)].map((algorithm) => [algorithm, createHash(algorithm)]));
  }

  update(chunk: Buffer): void {
    for (const hash of this.hashes.values()) hash.update(chunk);
  }

  /** The hex digest of each algorithm; call once, after the last chunk. */
  digest(): Map<DigestAlgorithm, string> {
    return new Map([...this.hashes].map(([algorithm, hash]) => [algorithm, hash.digest("hex")]));
  }
}
