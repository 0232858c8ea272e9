import { createPrivateKey, type KeyObject, scryptSync } from "node:crypto";
import { xsalsa20poly1305 } from "@noble/ciphers/salsa.js";
import { ExitCode, PkgError } from "@pkg/common";

const PEM =
  /-----BEGIN ENCRYPTED (SIGSTORE|COSIGN) PRIVATE KEY-----([\s\S]*?)-----END ENCRYPTED \1 PRIVATE KEY-----/;
/** scrypt's cost as cosign writes it is N 2^15, r 8, p 1; anything far beyond is refused, not computed. */
const MAX_SCRYPT_MEMORY = 256 * 1024 * 1024;

/** Whether `pem` is a private key in cosign's own encrypted format (`cosign generate-key-pair`). */
export function isCosignEncryptedKey(pem: string): boolean {
  return PEM.test(pem);
}

interface Envelope {
  kdf?: { name?: unknown; params?: { N?: unknown; r?: unknown; p?: unknown }; salt?: unknown };
  cipher?: { name?: unknown; nonce?: unknown };
  ciphertext?: unknown;
}

const malformed = (what: string, why: string) =>
  new PkgError(ExitCode.Data, `${what} is not a readable cosign key (${why})`);

/**
 * Decrypts a key in cosign's format: a JSON envelope holding scrypt parameters and salt, a
 * NaCl secretbox nonce and the ciphertext of the PKCS#8 key. cosign allows an empty passphrase,
 * so none given tries the empty one.
 */
export function decryptCosignKey(pem: string, passphrase: string | undefined, what: string): KeyObject {
  const body = PEM.exec(pem)?.[2] ?? "";
  let envelope: Envelope;
  try {
    envelope = JSON.parse(Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")) as Envelope;
  } catch {
    throw malformed(what, "not the JSON envelope cosign writes");
  }
  const { kdf, cipher } = envelope;
  const N = kdf?.params?.N;
  const r = kdf?.params?.r;
  const p = kdf?.params?.p;
  if (kdf?.name !== "scrypt" || typeof N !== "number" || typeof r !== "number" || typeof p !== "number")
    throw malformed(what, "no scrypt parameters");
  if (
    cipher?.name !== "nacl/secretbox" ||
    typeof cipher.nonce !== "string" ||
    typeof envelope.ciphertext !== "string"
  )
    throw malformed(what, "no secretbox cipher");
  if (typeof kdf.salt !== "string") throw malformed(what, "no salt");
  const memory = 128 * N * r;
  if (!Number.isInteger(N) || N < 2 || memory > MAX_SCRYPT_MEMORY || p > 16)
    throw malformed(what, "scrypt parameters out of bounds");
  const key = scryptSync(passphrase ?? "", Buffer.from(kdf.salt, "base64"), 32, {
    N,
    r,
    p,
    maxmem: memory * 2,
  });
  let der: Uint8Array;
  try {
    der = xsalsa20poly1305(key, Buffer.from(cipher.nonce, "base64")).decrypt(
      Buffer.from(envelope.ciphertext, "base64"),
    );
  } catch {
    throw passphrase
      ? new PkgError(ExitCode.Data, `${what} cannot be decrypted with PKG_KEY_PASSWORD (wrong passphrase)`)
      : new PkgError(ExitCode.Config, `${what} is encrypted and PKG_KEY_PASSWORD is unset or empty`);
  }
  try {
    return createPrivateKey({ key: Buffer.from(der), format: "der", type: "pkcs8" });
  } catch {
    throw malformed(what, "the decrypted key is not PKCS#8");
  }
}
