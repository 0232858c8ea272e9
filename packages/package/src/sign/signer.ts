import { ExitCode, isPkgError, PkgError, registerSecret } from "@pkg/common";
import type { TransparencyLogEntry } from "@sigstore/bundle";
import {
  FulcioSigner,
  InternalError,
  MessageSignatureBundleBuilder,
  RekorWitness,
  type Signer,
} from "@sigstore/sign";
import { identityProvider } from "./identity-token.js";
import { type KeyRef, readKeyRef } from "./key-ref.js";
import { loadSigningKey } from "./keys.js";
import { rekorBundleAnnotation } from "./rekor-bundle.js";
import type { SignatureAnnotations } from "./signature-manifest.js";

/** The variable a signing key's passphrase is read from (stripped from the tool's children). */
export const KEY_PASSWORD_VARIABLE = "PKG_KEY_PASSWORD";

/** How to sign: with a key (the log only when `logUrl` is set), or keyless against a CA and a log. */
export type SignMode =
  | { mode: "key"; key: KeyRef; logUrl?: string }
  | { mode: "keyless"; caUrl: string; logUrl: string };

/** Signs simple signing payloads; opened once (the key read and decrypted once) per command. */
export interface PayloadSigner {
  /** `key cosign.key` or `keyless via https://fulcio.example`, for log lines. */
  readonly description: string;
  sign(payload: Buffer): Promise<SignatureAnnotations>;
}

/** Timeouts and retries for the certificate authority and the log: a few quick attempts. */
const FETCH = { timeout: 30_000, retry: { retries: 2, factor: 2, minTimeout: 500, maxTimeout: 4_000 } };

export async function openSigner(mode: SignMode, env: NodeJS.ProcessEnv): Promise<PayloadSigner> {
  if (mode.mode === "keyless") {
    const signer = new FulcioSigner({
      identityProvider: identityProvider(env),
      fulcioBaseURL: mode.caUrl,
      ...FETCH,
    });
    const witness = new RekorWitness({ rekorBaseURL: mode.logUrl, ...FETCH });
    return {
      description: `keyless (certificate authority ${mode.caUrl}, log ${mode.logUrl})`,
      sign: (payload) => signWith(signer, witness, payload),
    };
  }
  const pem = await readKeyRef(mode.key, env);
  const passphrase = env[KEY_PASSWORD_VARIABLE] || undefined;
  if (passphrase) registerSecret(passphrase);
  const key = loadSigningKey(pem, passphrase, `the key ${mode.key.text}`);
  const signer: Signer = {
    sign: async (data) => ({
      signature: key.sign(data),
      key: { $case: "publicKey", publicKey: key.publicKeyPem },
    }),
  };
  const witness =
    mode.logUrl === undefined ? undefined : new RekorWitness({ rekorBaseURL: mode.logUrl, ...FETCH });
  return {
    description: `key ${mode.key.text}${mode.logUrl === undefined ? "" : ` (log ${mode.logUrl})`}`,
    sign: (payload) => signWith(signer, witness, payload),
  };
}

async function signWith(
  signer: Signer,
  witness: RekorWitness | undefined,
  payload: Buffer,
): Promise<SignatureAnnotations> {
  let bundle: Awaited<ReturnType<MessageSignatureBundleBuilder["create"]>>;
  try {
    bundle = await new MessageSignatureBundleBuilder({ signer, witnesses: witness ? [witness] : [] }).create({
      data: payload,
    });
  } catch (error) {
    throw signingFailure(error);
  }
  const annotations: SignatureAnnotations = {
    signature: Buffer.from(bundle.content.messageSignature.signature).toString("base64"),
  };
  const material = bundle.verificationMaterial.content;
  const certificate =
    material.$case === "x509CertificateChain"
      ? material.x509CertificateChain.certificates[0]?.rawBytes
      : material.$case === "certificate"
        ? material.certificate.rawBytes
        : undefined;
  if (certificate) annotations.certificate = derToPem(Buffer.from(certificate));
  const entry: TransparencyLogEntry | undefined = bundle.verificationMaterial.tlogEntries[0];
  if (witness) {
    const text = entry && rekorBundleAnnotation(entry);
    if (!text)
      throw new PkgError(
        ExitCode.Unavailable,
        "the transparency log answered without a signed entry timestamp",
      );
    annotations.bundle = text;
  }
  return annotations;
}

export function derToPem(der: Buffer): string {
  const lines = der.toString("base64").match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`;
}

/** A failure of the certificate authority, the log or the token source, as one line with its exit code. */
function signingFailure(error: unknown): PkgError {
  if (isPkgError(error)) return error;
  if (error instanceof InternalError) {
    const cause = error.cause as { statusCode?: number; message?: string } | undefined;
    const status = cause?.statusCode;
    const service = error.code.startsWith("CA_")
      ? "the certificate authority"
      : error.code.startsWith("TLOG_")
        ? "the transparency log"
        : "the identity token source";
    const why = cause?.message ?? error.message;
    if (error.code.startsWith("IDENTITY_TOKEN")) {
      return new PkgError(ExitCode.Config, `keyless signing: cannot read the identity token (${why})`);
    }
    if (status === 401 || status === 403) {
      return new PkgError(ExitCode.AuthRejected, `${service} refused the identity token (${status})`);
    }
    if (status !== undefined && status >= 400 && status < 500) {
      return new PkgError(ExitCode.Data, `${service} refused the request (${status}: ${why})`);
    }
    return new PkgError(ExitCode.Unavailable, `${service} is unavailable (${why})`);
  }
  return new PkgError(ExitCode.Unavailable, `signing failed: ${(error as Error)?.message ?? String(error)}`);
}
