/**
 * The names cosign gives the parts of an image signature, so that what pkg signs is found and
 * checked by `cosign verify`, and what cosign signs by `pkg package verify`.
 */
export const CosignFormat = {
  /** The layer media type of a signed payload (the "simple signing" JSON document). */
  SimpleSigningMediaType: "application/vnd.dev.cosign.simplesigning.v1+json",
  /** `artifactType` (and config media type) of a signature manifest stored as an OCI 1.1 referrer. */
  SignatureArtifactType: "application/vnd.dev.cosign.artifact.sig.v1+json",
  /** The config media type of a signature manifest stored at the `sha256-<hex>.sig` tag. */
  LegacyConfigMediaType: "application/vnd.oci.image.config.v1+json",
  /** The suffix of the tag cosign stores signatures at by default: `sha256-<hex>.sig`. */
  SignatureTagSuffix: ".sig",
  /** Layer annotation: the base64 signature over the payload. */
  SignatureAnnotation: "dev.cosignproject.cosign/signature",
  /** Layer annotation: the PEM signing certificate (keyless). */
  CertificateAnnotation: "dev.sigstore.cosign/certificate",
  /** Layer annotation: the PEM chain up to the certificate authority's root (keyless, optional). */
  ChainAnnotation: "dev.sigstore.cosign/chain",
  /** Layer annotation: the transparency log's signed entry timestamp and the entry (JSON). */
  BundleAnnotation: "dev.sigstore.cosign/bundle",
  /** The `critical.type` of a simple signing payload. */
  PayloadType: "cosign container image signature",
  /** Sigstore bundles stored as referrers (cosign's newer format): counted as present, not verified. */
  SigstoreBundleArtifactPrefix: "application/vnd.dev.sigstore.bundle",
} as const;

/** A signed payload is a small JSON document: larger blobs are refused before they are read. */
export const MAX_PAYLOAD_BYTES = 64 * 1024;

/** Secrets read from a file (a key, a passphrase, an identity token) are bounded by this. */
export const MAX_SECRET_FILE_BYTES = 64 * 1024;
