import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from "node:crypto";
import { ExitCode, PkgError, registerSecret } from "@pkg/common";
import { decryptCosignKey, isCosignEncryptedKey } from "./cosign-key.js";

/** The key types cosign signs and verifies images with that pkg supports. */
export type KeyAlgorithm = "ecdsa-p256" | "ed25519";

export interface SigningKey {
  algorithm: KeyAlgorithm;
  /** The public half, PEM (SubjectPublicKeyInfo), as `cosign verify --key` reads it. */
  publicKeyPem: string;
  /** ECDSA P-256 over SHA-256 (DER signature), or Ed25519 over the payload itself: as cosign signs. */
  sign(payload: Buffer): Buffer;
}

function algorithmOf(key: KeyObject, what: string): KeyAlgorithm {
  if (key.asymmetricKeyType === "ed25519") return "ed25519";
  if (key.asymmetricKeyType === "ec" && key.asymmetricKeyDetails?.namedCurve === "prime256v1")
    return "ecdsa-p256";
  const kind =
    key.asymmetricKeyType === "ec" ? `ec ${key.asymmetricKeyDetails?.namedCurve}` : key.asymmetricKeyType;
  throw new PkgError(ExitCode.Data, `${what} is a ${kind} key; pkg signs with ECDSA P-256 or Ed25519 keys`);
}

/**
 * A private key from PEM (PKCS#8, encrypted PKCS#8, SEC1, or cosign's own encrypted format),
 * decrypted with `passphrase` when it is encrypted. Errors name `what` (the reference), never the key or the passphrase.
 */
export function loadSigningKey(pem: string, passphrase: string | undefined, what: string): SigningKey {
  if (passphrase) registerSecret(passphrase);
  let key: KeyObject;
  try {
    key = isCosignEncryptedKey(pem)
      ? decryptCosignKey(pem, passphrase, what)
      : createPrivateKey({ key: pem, format: "pem", ...(passphrase ? { passphrase } : {}) });
  } catch (error) {
    if (error instanceof PkgError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (code === "ERR_MISSING_PASSPHRASE" || (/encrypted/i.test(pem) && !passphrase)) {
      throw new PkgError(ExitCode.Config, `${what} is encrypted and PKG_KEY_PASSWORD is unset or empty`);
    }
    throw new PkgError(
      ExitCode.Data,
      passphrase
        ? `${what} cannot be read as a private key with PKG_KEY_PASSWORD (wrong passphrase, or not a PEM key)`
        : `${what} is not a PEM private key`,
    );
  }
  const algorithm = algorithmOf(key, what);
  const publicKeyPem = createPublicKey(key).export({ type: "spki", format: "pem" }).toString();
  return {
    algorithm,
    publicKeyPem,
    sign: (payload) => sign(algorithm === "ed25519" ? null : "sha256", payload, key),
  };
}

export interface VerifyingKey {
  algorithm: KeyAlgorithm;
  verify(payload: Buffer, signature: Buffer): boolean;
}

/** A public key from PEM (SubjectPublicKeyInfo, as `cosign generate-key-pair` writes cosign.pub). */
export function loadVerifyingKey(pem: string, what: string): VerifyingKey {
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: "pem" });
  } catch {
    throw new PkgError(ExitCode.Data, `${what} is not a PEM public key`);
  }
  const algorithm = algorithmOf(key, what);
  return {
    algorithm,
    verify: (payload, signature) => {
      try {
        return verify(algorithm === "ed25519" ? null : "sha256", payload, key, signature);
      } catch {
        return false;
      }
    },
  };
}
