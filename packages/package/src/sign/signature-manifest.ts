import { isJsonObject } from "@pkg/common";
import { type Descriptor, type ImageManifest, MediaType, sha256Digest } from "@pkg/oci";
import { CosignFormat } from "./cosign-format.js";

/** The annotations cosign puts on a signature layer: the signature, and for keyless its evidence. */
export interface SignatureAnnotations {
  /** Base64 signature over the payload. */
  signature: string;
  /** PEM signing certificate (keyless). */
  certificate?: string;
  /** PEM chain above the certificate (optional). */
  chain?: string;
  /** The transparency log's entry and signed entry timestamp, as cosign writes them (JSON). */
  bundle?: string;
}

/** One signature layer of a stored signature manifest: where its payload is, and its annotations. */
export interface SignatureLayer {
  payload: Descriptor;
  annotations: SignatureAnnotations;
}

/** The config of a referrer signature manifest: an empty JSON object, typed as cosign types it. */
export const SIGNATURE_CONFIG = Buffer.from("{}", "utf8");

export function layerAnnotations(a: SignatureAnnotations): Record<string, string> {
  return {
    [CosignFormat.SignatureAnnotation]: a.signature,
    ...(a.certificate === undefined ? {} : { [CosignFormat.CertificateAnnotation]: a.certificate }),
    ...(a.chain === undefined ? {} : { [CosignFormat.ChainAnnotation]: a.chain }),
    ...(a.bundle === undefined ? {} : { [CosignFormat.BundleAnnotation]: a.bundle }),
  };
}

/**
 * The signature manifest for `subject`, stored as an OCI 1.1 referrer the way cosign's OCI 1.1
 * mode stores it: `artifactType` and config media type `…artifact.sig.v1+json`, one simple
 * signing layer carrying the signature annotations, and `subject` naming the signed manifest.
 */
export function signatureManifest(subject: Descriptor, payload: Buffer, annotations: SignatureAnnotations) {
  const config: Descriptor = {
    mediaType: CosignFormat.SignatureArtifactType,
    digest: sha256Digest(SIGNATURE_CONFIG),
    size: SIGNATURE_CONFIG.length,
  };
  const manifest: ImageManifest = {
    schemaVersion: 2,
    mediaType: MediaType.ImageManifest,
    artifactType: CosignFormat.SignatureArtifactType,
    config,
    layers: [
      {
        mediaType: CosignFormat.SimpleSigningMediaType,
        digest: sha256Digest(payload),
        size: payload.length,
        annotations: layerAnnotations(annotations),
      },
    ],
    subject: { mediaType: subject.mediaType, digest: subject.digest, size: subject.size },
  };
  return { manifest: Buffer.from(JSON.stringify(manifest), "utf8"), config };
}

/**
 * The signature layers of a stored signature manifest (a referrer, or cosign's `.sig` tag, whose
 * manifest may hold several): every simple signing layer with a signature annotation. Bytes that
 * are not a manifest, and layers of other kinds, yield nothing.
 */
export function readSignatureLayers(bytes: Buffer): SignatureLayer[] {
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString("utf8"));
  } catch {
    return [];
  }
  if (!isJsonObject(doc) || !Array.isArray(doc.layers)) return [];
  const layers: SignatureLayer[] = [];
  for (const layer of doc.layers) {
    if (!isJsonObject(layer) || layer.mediaType !== CosignFormat.SimpleSigningMediaType) continue;
    if (typeof layer.digest !== "string" || typeof layer.size !== "number") continue;
    const notes = isJsonObject(layer.annotations) ? layer.annotations : {};
    const text = (key: string) => (typeof notes[key] === "string" ? (notes[key] as string) : undefined);
    const signature = text(CosignFormat.SignatureAnnotation);
    if (signature === undefined) continue;
    const annotations: SignatureAnnotations = { signature };
    const certificate = text(CosignFormat.CertificateAnnotation);
    const chain = text(CosignFormat.ChainAnnotation);
    const bundle = text(CosignFormat.BundleAnnotation);
    if (certificate) annotations.certificate = certificate;
    if (chain) annotations.chain = chain;
    if (bundle) annotations.bundle = bundle;
    layers.push({
      payload: { mediaType: layer.mediaType, digest: layer.digest, size: layer.size },
      annotations,
    });
  }
  return layers;
}
