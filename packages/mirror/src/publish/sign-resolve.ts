import { ExitCode, PkgError, registerSecret } from "@pkg/common";
import {
  IDENTITY_TOKEN_VARIABLE,
  KEY_PASSWORD_VARIABLE,
  type KeyRef,
  openSigner,
  type PayloadSigner,
  PUBLIC_CA_URL,
  PUBLIC_LOG_URL,
  readSecretFile,
  type SignMode,
  serviceUrl,
} from "@pkg/package/sign";
import type { SignSpec } from "../spec/sign.js";
import type { SignRef } from "../spec/sign-ref.js";

/** What a run signs with: the mode, and the environment the signer reads its secrets from. */
export interface ResolvedSigning {
  mode: SignMode;
  /** The run's environment plus the resolved passphrase or identity token (never exported to children). */
  env: NodeJS.ProcessEnv;
}

/** A reference (never the value) that resolved to nothing: exit 78 naming the field. */
const nothing = (field: string, ref: SignRef) =>
  new PkgError(
    ExitCode.Config,
    `${field}: ${ref.form === "literal" ? "the value" : ref.text} resolves to nothing (${ref.form === "file" ? "missing or empty file" : "unset or empty"})`,
  );

/** The text an `env://` or `file://` reference resolves to (trimmed), or exit 78 naming the field. */
async function resolveText(ref: SignRef, field: string, env: NodeJS.ProcessEnv): Promise<string> {
  let text: string;
  if (ref.form === "env") text = env[ref.name] ?? "";
  else if (ref.form === "file") {
    try {
      text = await readSecretFile(ref.path, field);
    } catch (error) {
      if (error instanceof PkgError && error.exitCode === ExitCode.Config) throw nothing(field, ref);
      throw error;
    }
  } else text = ref.text;
  const value = text.trim();
  if (value === "") throw nothing(field, ref);
  return value;
}

async function resolveSecret(ref: SignRef, field: string, env: NodeJS.ProcessEnv): Promise<string> {
  const value = await resolveText(ref, field, env);
  registerSecret(value);
  return value;
}

async function resolveUrl(ref: SignRef | undefined, fallback: string, field: string, env: NodeJS.ProcessEnv) {
  return serviceUrl(ref === undefined ? fallback : await resolveText(ref, field, env), field);
}

/** The key reference as `pkg package sign --key` takes it; a key-management service is exit 82. */
async function keyRef(ref: SignRef, field: string, env: NodeJS.ProcessEnv): Promise<KeyRef> {
  if (ref.form === "kms") {
    throw new PkgError(
      ExitCode.Unsupported,
      `${field}: ${ref.scheme}:// keys are not supported; only a key file or env://NAME`,
      { detail: "unsupported_key_backend" },
    );
  }
  // a key that resolves to nothing would publish unsigned: fail closed, naming the field
  await resolveText(ref, field, env);
  if (ref.form === "env") return { form: "env", name: ref.name, text: ref.text };
  return { form: "file", path: ref.form === "file" ? ref.path : ref.text, text: ref.text };
}

/**
 * Resolves every reference of the spec's `sign` once, before the run pushes anything: the key (a
 * path or variable that must hold something), the passphrase and the identity token (exit 78
 * naming the field when they resolve to nothing), and the service URLs (keyless always has both:
 * the spec's, else the public instance's).
 */
export async function resolveSigning(sign: SignSpec, env: NodeJS.ProcessEnv): Promise<ResolvedSigning> {
  const signerEnv: NodeJS.ProcessEnv = { ...env };
  delete signerEnv[KEY_PASSWORD_VARIABLE];
  delete signerEnv[IDENTITY_TOKEN_VARIABLE];
  if ("key" in sign) {
    const key = await keyRef(sign.key.ref, "sign.key", env);
    if (sign.key.passphrase)
      signerEnv[KEY_PASSWORD_VARIABLE] = await resolveSecret(sign.key.passphrase, "sign.key.passphrase", env);
    const mode: SignMode =
      sign.key.log === undefined
        ? { mode: "key", key }
        : { mode: "key", key, logUrl: await resolveUrl(sign.key.log, PUBLIC_LOG_URL, "sign.key.log", env) };
    return { mode, env: signerEnv };
  }
  const keyless = sign.keyless;
  if (keyless.identity_token) {
    signerEnv[IDENTITY_TOKEN_VARIABLE] = await resolveSecret(
      keyless.identity_token,
      "sign.keyless.identity_token",
      env,
    );
  }
  return {
    mode: {
      mode: "keyless",
      caUrl: await resolveUrl(keyless.cert_authority, PUBLIC_CA_URL, "sign.keyless.cert_authority", env),
      logUrl: await resolveUrl(keyless.log, PUBLIC_LOG_URL, "sign.keyless.log", env),
    },
    env: signerEnv,
  };
}

/** The run's signer for a spec's `sign`, resolved and opened (the key read and decrypted) once. */
export async function openSpecSigner(sign: SignSpec, env: NodeJS.ProcessEnv): Promise<PayloadSigner> {
  const resolved = await resolveSigning(sign, env);
  return openSigner(resolved.mode, resolved.env);
}
