import { createHash } from "node:crypto";

const SHA256_DIGEST = /^sha256:[a-f0-9]{64}$/;

/** `sha256:<64 lowercase hex>` of exactly these bytes. */
export function sha256Of(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

export function isSha256Digest(value: unknown): value is string {
  return typeof value === "string" && SHA256_DIGEST.test(value);
}

/** The hex part of a `sha256:<hex>` digest; throws on anything else (callers validate first). */
export function digestHex(digest: string): string {
  if (!isSha256Digest(digest)) throw new TypeError(`not a sha256 digest: ${JSON.stringify(digest)}`);
  return digest.slice("sha256:".length);
}
