import { createHash, X509Certificate } from "node:crypto";
import type { TransparencyLogEntry } from "@sigstore/bundle";
import { HashAlgorithm } from "@sigstore/protobuf-specs";
import { type TrustMaterial, toSignedEntity, VerificationError, Verifier } from "@sigstore/verify";
import type { VerifyingKey } from "./keys.js";
import { logEntryFromAnnotation } from "./rekor-bundle.js";
import type { SignatureAnnotations } from "./signature-manifest.js";

/** Who must have signed: the holder of a key, or an exact keyless identity and OIDC issuer. */
export type VerifyPolicy =
  | { kind: "key"; key: VerifyingKey; keyName: string }
  | { kind: "identity"; identity: string; issuer: string; trust: TrustMaterial };

/** Checks one signature over `payload`; returns undefined when it holds, else why not (one phrase). */
export function checkSignature(
  payload: Buffer,
  annotations: SignatureAnnotations,
  policy: VerifyPolicy,
): string | undefined {
  const signature = Buffer.from(annotations.signature, "base64");
  if (policy.kind === "key") {
    return policy.key.verify(payload, signature)
      ? undefined
      : `a signature does not verify with the key ${policy.keyName}`;
  }
  if (annotations.certificate === undefined)
    return "a signature has no certificate (signed with a key: verify with --key)";
  if (annotations.bundle === undefined) return "a signature has no transparency-log entry";
  const entry = logEntryFromAnnotation(annotations.bundle);
  if (typeof entry === "string") return `a signature's ${entry.replace(/^its /, "")}`;
  let certificateDer: Buffer;
  try {
    certificateDer = new X509Certificate(annotations.certificate).raw;
  } catch {
    return "a signature's certificate is not a PEM certificate";
  }
  const verifier = new Verifier(policy.trust, { tlogThreshold: 1, ctlogThreshold: 1, timestampThreshold: 1 });
  let signer: ReturnType<Verifier["verify"]>;
  try {
    signer = verifier.verify(toSignedEntity(bundleOf(payload, signature, certificateDer, entry), payload));
  } catch (error) {
    return explain(error);
  }
  const san = signer.identity?.subjectAlternativeName;
  const issuer = signer.identity?.extensions?.issuer;
  if (san !== policy.identity || issuer !== policy.issuer) {
    return `signed by ${san ?? "(no identity)"} (issuer ${issuer ?? "none"}), not ${policy.identity} (issuer ${policy.issuer})`;
  }
  return undefined;
}

/** A Sigstore bundle (v0.1: the log's promise) holding what the cosign annotations carry. */
function bundleOf(payload: Buffer, signature: Buffer, certificate: Buffer, entry: TransparencyLogEntry) {
  return {
    mediaType: "application/vnd.dev.sigstore.bundle+json;version=0.1",
    verificationMaterial: {
      content: {
        $case: "x509CertificateChain",
        x509CertificateChain: { certificates: [{ rawBytes: certificate }] },
      },
      tlogEntries: [entry],
      timestampVerificationData: undefined,
    },
    content: {
      $case: "messageSignature",
      messageSignature: {
        messageDigest: {
          algorithm: HashAlgorithm.SHA2_256,
          digest: createHash("sha256").update(payload).digest(),
        },
        signature,
      },
    },
  } as unknown as Parameters<typeof toSignedEntity>[0];
}

function explain(error: unknown): string {
  if (!(error instanceof VerificationError))
    return `a signature cannot be checked (${(error as Error).message})`;
  const code = error.code as string;
  if (code.startsWith("TLOG"))
    return `a signature's transparency-log entry does not verify (${error.message})`;
  if (code.startsWith("CERTIFICATE") || code === "TIMESTAMP_ERROR")
    return `a signature's certificate does not verify against the trusted root (${error.message})`;
  if (code === "SIGNATURE_ERROR") return "a signature does not verify with its certificate";
  return `a signature does not verify (${error.message})`;
}
