import { ExitCode, PkgError } from "@pkg/common";
import type { TargetReader } from "@pkg/oci";
import { MAX_PAYLOAD_BYTES } from "./cosign-format.js";
import { findSignatures } from "./discover.js";
import { readSimpleSigningPayload } from "./simple-signing.js";
import type { Subject } from "./subjects.js";
import { checkSignature, type VerifyPolicy } from "./verify-layer.js";

export interface VerifiedSubject {
  subject: string;
  label: string;
  /** Where the signature that holds was found. */
  source: string;
}

async function readPayload(target: TargetReader, digest: string, size: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await target.fetchBlob(digest, size)) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/**
 * Checks that `subject` carries at least one signature that holds under `policy`: the signature
 * over the payload (with the key, or with a certificate that chains to the trusted root, an entry
 * in the transparency log, and the exact identity and issuer), and a payload naming this very
 * manifest. Exit 1 otherwise, one line saying what failed for each signature found.
 */
export async function verifySubject(
  target: TargetReader,
  subject: Subject,
  policy: VerifyPolicy,
): Promise<VerifiedSubject> {
  const digest = subject.descriptor.digest;
  const found = await findSignatures(target, digest);
  if (found.length === 0) throw new PkgError(ExitCode.Failed, `${subject.label} ${digest}: no signature`);
  const reasons: string[] = [];
  for (const { source, layer } of found) {
    if (layer.payload.size > MAX_PAYLOAD_BYTES) {
      reasons.push(`a signed payload is larger than ${MAX_PAYLOAD_BYTES} bytes`);
      continue;
    }
    const payload = await readPayload(target, layer.payload.digest, layer.payload.size);
    const failure = checkSignature(payload, layer.annotations, policy);
    if (failure !== undefined) {
      reasons.push(failure);
      continue;
    }
    const claim = readSimpleSigningPayload(payload);
    if (typeof claim === "string") reasons.push(claim);
    else if (claim.manifestDigest !== digest)
      reasons.push(`a signature signs ${claim.manifestDigest}, not this manifest (tampered or moved)`);
    else return { subject: digest, label: subject.label, source };
  }
  const unique = [...new Set(reasons)];
  throw new PkgError(ExitCode.Failed, `${subject.label} ${digest}: ${unique.join("; ")}`);
}
