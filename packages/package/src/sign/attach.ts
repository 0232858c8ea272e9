import { type Descriptor, MediaType, memoryBlob, type Target } from "@pkg/oci";
import { SIGNATURE_CONFIG, type SignatureAnnotations, signatureManifest } from "./signature-manifest.js";

/**
 * Stores a signature of `subject` in its repository: the payload and the empty config as blobs,
 * then the signature manifest by digest. Its `subject` field makes it a referrer: a registry with
 * the referrers API indexes it (and says so with `OCI-Subject`); for one without, the OCI client
 * adds it to the `sha256-<hex>` fallback tag's index, where cosign looks too.
 */
export async function attachSignature(
  target: Target,
  subject: Descriptor,
  payload: Buffer,
  annotations: SignatureAnnotations,
): Promise<Descriptor> {
  const { manifest } = signatureManifest(subject, payload, annotations);
  await target.pushBlob(memoryBlob(SIGNATURE_CONFIG));
  await target.pushBlob(memoryBlob(payload));
  return target.pushManifest(manifest, MediaType.ImageManifest);
}
