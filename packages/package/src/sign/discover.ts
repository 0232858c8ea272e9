import { type Descriptor, referrersTag, type TargetReader } from "@pkg/oci";
import { CosignFormat } from "./cosign-format.js";
import { readSignatureLayers, type SignatureLayer } from "./signature-manifest.js";

/** A signature found for a subject, and where: `referrer sha256:…` or the `sha256-<hex>.sig` tag. */
export interface FoundSignature {
  source: string;
  layer: SignatureLayer;
}

const isSignatureReferrer = (d: Descriptor) => d.artifactType === CosignFormat.SignatureArtifactType;
const isBundleReferrer = (d: Descriptor) =>
  d.artifactType?.startsWith(CosignFormat.SigstoreBundleArtifactPrefix) === true;

/** The tag cosign stores a subject's signatures at by default: `sha256-<hex>.sig`. */
export const signatureTag = (subjectDigest: string) =>
  `${referrersTag(subjectDigest)}${CosignFormat.SignatureTagSuffix}`;

/**
 * Every signature layer stored for `subjectDigest`: the signature referrers (through the referrers
 * API, else the `sha256-<hex>` fallback tag's index), then cosign's default `sha256-<hex>.sig` tag.
 */
export async function findSignatures(target: TargetReader, subjectDigest: string): Promise<FoundSignature[]> {
  const found: FoundSignature[] = [];
  const referrers = (await target.referrers(subjectDigest)).filter(isSignatureReferrer);
  for (const referrer of referrers) {
    const stored = await target.fetchManifest(referrer.digest);
    if (!stored) continue;
    for (const layer of readSignatureLayers(stored.bytes))
      found.push({ source: `referrer ${referrer.digest.slice(0, 19)}`, layer });
  }
  const tag = signatureTag(subjectDigest);
  const legacy = await target.fetchManifest(tag);
  if (legacy)
    for (const layer of readSignatureLayers(legacy.bytes)) found.push({ source: `tag ${tag}`, layer });
  return found;
}

/**
 * Whether anything signs `subjectDigest`: a signature referrer, a Sigstore bundle referrer, or
 * the `.sig` tag. Presence alone decides; nothing is verified (what `pipeline sign` skips on).
 */
export async function hasSignature(target: TargetReader, subjectDigest: string): Promise<boolean> {
  const referrers = await target.referrers(subjectDigest);
  if (referrers.some((d) => isSignatureReferrer(d) || isBundleReferrer(d))) return true;
  return (await target.fetchManifest(signatureTag(subjectDigest))) !== undefined;
}
