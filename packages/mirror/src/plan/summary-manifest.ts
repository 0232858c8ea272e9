import { ExitCode, PkgError } from "@pkg/common";
import { type Descriptor, type ImageManifest, MediaType } from "@pkg/oci";

export const PublishedSummaryMediaType = {
  Artifact: "application/vnd.pkg.published.v1",
  Config: "application/vnd.pkg.published.v1+json",
} as const;

/** The OCI empty JSON blob: the summary's one layer, since not every registry takes a manifest without layers. */
export const EMPTY_JSON = Buffer.from("{}");

/** A summary larger than this is refused unread, and the run reads every index instead (about 50,000
 *  record tags of 6 platforms each, their config digests included). */
export const MAX_SUMMARY_SIZE = 32 * 1024 * 1024;

type Blob = Pick<Descriptor, "digest" | "size">;

/**
 * The manifest tagged `__pkg.published`, serialised: the summary document as config, one empty
 * layer. Keys are built in one fixed order, so the same summary always has the same digest.
 */
export function summaryManifest(config: Blob, emptyLayer: Blob): Buffer {
  const manifest: ImageManifest = {
    schemaVersion: 2,
    mediaType: MediaType.ImageManifest,
    artifactType: PublishedSummaryMediaType.Artifact,
    config: { mediaType: PublishedSummaryMediaType.Config, digest: config.digest, size: config.size },
    layers: [{ mediaType: MediaType.EmptyJson, digest: emptyLayer.digest, size: emptyLayer.size }],
  };
  return Buffer.from(JSON.stringify(manifest), "utf8");
}

/** The config descriptor of a summary manifest, after checking the manifest is one (exit 65 otherwise). */
export function summaryConfig(bytes: Buffer): Descriptor {
  let manifest: Partial<ImageManifest>;
  try {
    manifest = JSON.parse(bytes.toString("utf8")) as Partial<ImageManifest>;
  } catch (error) {
    throw new PkgError(ExitCode.Data, "the manifest is not JSON", { cause: error });
  }
  const config = manifest.config;
  if (
    manifest.mediaType !== MediaType.ImageManifest ||
    manifest.artifactType !== PublishedSummaryMediaType.Artifact ||
    config?.mediaType !== PublishedSummaryMediaType.Config
  ) {
    throw new PkgError(ExitCode.Data, "not a pkg published-summary manifest");
  }
  if (typeof config.digest !== "string" || !Number.isSafeInteger(config.size) || config.size < 0) {
    throw new PkgError(ExitCode.Data, "the config descriptor is malformed");
  }
  if (config.size > MAX_SUMMARY_SIZE) {
    throw new PkgError(ExitCode.Data, `${config.size} bytes, over the ${MAX_SUMMARY_SIZE} limit`);
  }
  return config;
}
