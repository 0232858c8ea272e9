import { open } from "node:fs/promises";
import { ExitCode, PkgError, registerSecret, usageError } from "@pkg/common";
import { MAX_SECRET_FILE_BYTES } from "./cosign-format.js";

/**
 * A `--key` reference: a path (bare or `file://PATH`) or `env://NAME` (the variable holds the
 * PEM). Key-management-service schemes are recognised and refused: only files and variables are
 * implemented.
 */
export type KeyRef =
  | { form: "file"; path: string; text: string }
  | { form: "env"; name: string; text: string };

const KMS_SCHEMES = ["awskms", "gcpkms", "azurekms", "hashivault", "k8s"];
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Reads `--key`'s value; key material pasted on the command line is refused without repeating it. */
export function parseKeyRef(text: string, flag = "--key"): KeyRef {
  if (text.includes("BEGIN")) {
    registerSecret(text);
    throw usageError(
      `${flag} holds key material; put it in a file or an environment variable and name that (PATH, file://PATH or env://NAME)`,
    );
  }
  const scheme = /^([a-z0-9]+):\/\//.exec(text)?.[1];
  if (scheme !== undefined && KMS_SCHEMES.includes(scheme)) {
    throw new PkgError(
      ExitCode.Unsupported,
      `${flag}: ${scheme}:// keys are not supported; only a key file (PATH, file://PATH) or env://NAME`,
      { detail: "unsupported_key_backend" },
    );
  }
  if (text.startsWith("env://")) {
    const name = text.slice("env://".length);
    if (!ENV_NAME.test(name)) throw usageError(`${flag}: env://${name} is not an environment variable name`);
    return { form: "env", name, text };
  }
  const path = text.startsWith("file://") ? text.slice("file://".length) : text;
  if (path.trim() === "") throw usageError(`${flag}: the key path is empty`);
  return { form: "file", path, text };
}

/**
 * The text a reference resolves to, registered as a secret. A variable that is unset or empty,
 * or a file that is missing or empty, is exit 78 naming the variable or path (never the value);
 * a file larger than `MAX_SECRET_FILE_BYTES` is refused (65).
 */
export async function readKeyRef(
  ref: KeyRef,
  env: NodeJS.ProcessEnv,
  what = "the signing key",
): Promise<string> {
  const text = ref.form === "env" ? (env[ref.name] ?? "") : await readSecretFile(ref.path, what);
  if (text.trim() === "") {
    throw new PkgError(
      ExitCode.Config,
      ref.form === "env"
        ? `${what}: the environment variable ${ref.name} is unset or empty`
        : `${what}: ${ref.path} is empty`,
    );
  }
  registerSecret(text);
  registerSecret(text.trim());
  return text;
}

/** A secret file's text: at most `MAX_SECRET_FILE_BYTES`, UTF-8. Missing is exit 78. */
export async function readSecretFile(path: string, what: string): Promise<string> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "r");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PkgError(
      code === "ENOENT" ? ExitCode.Config : ExitCode.IoError,
      `${what}: cannot read ${path} (${code === "ENOENT" ? "no such file" : (code ?? "error")})`,
    );
  }
  try {
    const buffer = Buffer.alloc(MAX_SECRET_FILE_BYTES + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > MAX_SECRET_FILE_BYTES) {
      throw new PkgError(ExitCode.Data, `${what}: ${path} is larger than ${MAX_SECRET_FILE_BYTES} bytes`);
    }
    return buffer.subarray(0, filled).toString("utf8");
  } finally {
    await handle.close();
  }
}
