import { createHash, type Hash } from "node:crypto";
import { Transform, type TransformCallback } from "node:stream";
import { ExitCode, PkgError } from "@pkg/common";

/** Digest algorithms this client reads; it writes sha256 only. */
const algorithms = { sha256: 64, sha512: 128 } as const;
type Algorithm = keyof typeof algorithms;

export interface ParsedDigest {
  algorithm: Algorithm;
  hex: string;
}

/** Splits `sha256:<hex>` / `sha512:<hex>`; undefined for anything else. */
export function parseDigest(digest: string): ParsedDigest | undefined {
  const match = /^(sha256|sha512):([0-9a-f]+)$/.exec(digest);
  if (!match) return undefined;
  const algorithm = match[1] as Algorithm;
  const hex = match[2] as string;
  return hex.length === algorithms[algorithm] ? { algorithm, hex } : undefined;
}

export function isDigest(value: string): boolean {
  return parseDigest(value) !== undefined;
}

/** The parsed digest, or a data error (exit 65) naming `what`. */
export function requireDigest(digest: string, what: string): ParsedDigest {
  const parsed = parseDigest(digest);
  if (!parsed) throw new PkgError(ExitCode.Data, `${what}: "${digest}" is not a sha256 or sha512 digest`);
  return parsed;
}

export function sha256Digest(bytes: Buffer | string): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/** The digest of `bytes` computed with the algorithm of `expected`. */
export function digestLike(expected: string, bytes: Buffer): string {
  const { algorithm } = requireDigest(expected, "digest");
  return `${algorithm}:${createHash(algorithm).update(bytes).digest("hex")}`;
}

export function newHash(digest: string): Hash {
  return createHash(requireDigest(digest, "digest").algorithm);
}

/**
 * Passes bytes through while hashing and counting them; fails with a data error (exit 65) when
 * the content runs past `size` or does not end at exactly `size` bytes hashing to `digest`
 * (with `size` undefined, only the digest is checked).
 */
export class VerifyingStream extends Transform {
  readonly #hash: Hash;
  readonly #digest: string;
  readonly #size: number | undefined;
  readonly #what: string;
  #seen = 0;

  constructor(digest: string, size: number | undefined, what: string) {
    super();
    this.#hash = newHash(digest);
    this.#digest = digest;
    this.#size = size;
    this.#what = what;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#seen += chunk.length;
    if (this.#size !== undefined && this.#seen > this.#size) {
      callback(new PkgError(ExitCode.Data, `${this.#what}: more than the expected ${this.#size} bytes`));
      return;
    }
    this.#hash.update(chunk);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.#size !== undefined && this.#seen !== this.#size) {
      callback(new PkgError(ExitCode.Data, `${this.#what}: got ${this.#seen} bytes, expected ${this.#size}`));
      return;
    }
    const actual = `${this.#digest.slice(0, this.#digest.indexOf(":"))}:${this.#hash.digest("hex")}`;
    if (actual !== this.#digest) {
      callback(
        new PkgError(ExitCode.Data, `${this.#what}: content hashes to ${actual}, expected ${this.#digest}`),
      );
      return;
    }
    callback();
  }
}
