/** The media types that make an OCI artifact a pkg package or a package description. */
export const PackageMediaType = {
  Artifact: "application/vnd.pkg.package.v1",
  Config: "application/vnd.pkg.package.v1+json",
  LayerZstd: "application/vnd.oci.image.layer.v1.tar+zstd",
  LayerXz: "application/vnd.oci.image.layer.v1.tar+xz",
  DescriptionArtifact: "application/vnd.pkg.description.v1",
  Readme: "text/markdown",
  LogoSvg: "image/svg+xml",
  LogoPng: "image/png",
} as const;

/**
 * Tags starting with this prefix are the tools' own (the description, pkg-mirror's published
 * summary, and any added later); a package is never pushed to one.
 */
export const RESERVED_TAG_PREFIX = "__pkg.";

/** The tag under which a repository's description (README and logo) is published. */
export const DESCRIPTION_TAG = "__pkg.desc";

/**
 * The tag under which pkg-mirror keeps a repository's published summary (each version record
 * tag's index digest and platforms), so a check reads one document instead of one index per version.
 */
export const PUBLISHED_SUMMARY_TAG = "__pkg.published";
