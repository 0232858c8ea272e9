import { usageError } from "@pkg/common";
import { MediaType, type TargetReader } from "@pkg/oci";
import { PUBLIC_CA_URL, PUBLIC_LOG_URL, serviceUrl } from "../sign/endpoints.js";
import { parseKeyRef } from "../sign/key-ref.js";
import type { SignMode } from "../sign/signer.js";
import type { VerifyPolicy } from "../sign/verify-layer.js";

import { asksVerification } from "./verify-help.js";

export { trustedRootHelp, verifyRefusalHelp } from "./verify-help.js";

export interface SignFlags {
  key?: string;
  caUrl?: string;
  logUrl?: string;
  logUpload?: boolean;
}

/** The help of the signing flags `package sign` and `package push --sign` share. */
export const signHelp = {
  key: "sign with this private key (ECDSA P-256 or Ed25519, PEM): PATH, file://PATH or env://NAME; an encrypted key's passphrase comes from PKG_KEY_PASSWORD",
  caUrl: `keyless: the certificate authority (default ${PUBLIC_CA_URL})`,
  logUrl: `the transparency log: keyless always, with --key only with --log-upload (default ${PUBLIC_LOG_URL})`,
  logUpload: "with --key: record the signature in the transparency log",
  noLogUpload: "with --key: record nothing in any log (the default, stated explicitly)",
} as const;

/** The signing mode the flags ask for: `--key` is key mode, anything else keyless. */
export function signModeOf(flags: SignFlags): SignMode {
  if (flags.key !== undefined) {
    if (flags.caUrl !== undefined) throw usageError("--ca-url is for keyless signing, not with --key");
    if (flags.logUrl !== undefined && flags.logUpload !== true)
      throw usageError("--log-url with --key needs --log-upload (or leave both out)");
    const key = parseKeyRef(flags.key);
    return flags.logUpload === true
      ? { mode: "key", key, logUrl: serviceUrl(flags.logUrl ?? PUBLIC_LOG_URL, "--log-url") }
      : { mode: "key", key };
  }
  if (flags.logUpload !== undefined)
    throw usageError("--log-upload and --no-log-upload are for --key; keyless signing always uses the log");
  return {
    mode: "keyless",
    caUrl: serviceUrl(flags.caUrl ?? PUBLIC_CA_URL, "--ca-url"),
    logUrl: serviceUrl(flags.logUrl ?? PUBLIC_LOG_URL, "--log-url"),
  };
}

export interface VerifyFlags {
  key?: string;
  identity?: string;
  issuer?: string;
  trustedRoot?: string;
}

/** The policy verify flags ask for: a public key, or an exact identity and issuer (never both, never neither). */
export async function verifyPolicyOf(
  flags: VerifyFlags,
  names: { key: string; identity: string; issuer: string },
  env: NodeJS.ProcessEnv,
): Promise<VerifyPolicy> {
  const { readKeyRef } = await import("../sign/key-ref.js");
  const { loadVerifyingKey } = await import("../sign/keys.js");
  if (flags.key !== undefined) {
    if (flags.identity !== undefined || flags.issuer !== undefined)
      throw usageError(`${names.key} and ${names.identity} are two ways to verify: give one`);
    const ref = parseKeyRef(flags.key, names.key);
    const pem = await readKeyRef(ref, env, `the public key ${ref.text}`);
    return { kind: "key", key: loadVerifyingKey(pem, `the public key ${ref.text}`), keyName: ref.text };
  }
  if (flags.identity === undefined || flags.issuer === undefined) {
    throw usageError(
      flags.identity === undefined && flags.issuer === undefined
        ? `name who must have signed: ${names.key} PUB, or ${names.identity} ID with ${names.issuer} URL`
        : `${names.identity} and ${names.issuer} go together`,
    );
  }
  const { loadTrustMaterial } = await import("../sign/trust.js");
  return {
    kind: "identity",
    identity: flags.identity,
    issuer: flags.issuer,
    trust: await loadTrustMaterial(flags.trustedRoot, env),
  };
}

export interface VerifyRefusalFlags {
  verifyKey?: string;
  verifyIdentity?: string;
  verifyIssuer?: string;
  trustedRoot?: string;
}

/**
 * `--verify-key`/`--verify-identity` of `pkg exec` and `pkg package pull`: a check that refuses
 * (exit 1) a manifest without a signature that holds; undefined when neither flag is given.
 */
export async function manifestVerifier(
  flags: VerifyRefusalFlags,
  env: NodeJS.ProcessEnv,
): Promise<((target: TargetReader, digest: string, label: string) => Promise<void>) | undefined> {
  if (!asksVerification(flags)) return undefined;
  const policy = await verifyPolicyOf(
    {
      key: flags.verifyKey,
      identity: flags.verifyIdentity,
      issuer: flags.verifyIssuer,
      trustedRoot: flags.trustedRoot,
    },
    { key: "--verify-key", identity: "--verify-identity", issuer: "--verify-issuer" },
    env,
  );
  const { verifySubject } = await import("../sign/verify.js");
  return async (target, digest, label) => {
    await verifySubject(
      target,
      { descriptor: { mediaType: MediaType.ImageManifest, digest, size: 0 }, label },
      policy,
    );
  };
}
