import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import { dataError, usageError } from "@pkg/common";
import {
  type Descriptor,
  type ImageManifest,
  MediaType,
  memoryBlob,
  sha256Digest,
  type Target,
} from "@pkg/oci";
import { DESCRIPTION_TAG, PackageMediaType } from "../media-types.js";
import { canonicalJson } from "../push/manifest.js";
import { checkLogoBytes } from "./logo-bytes.js";

export interface DescribeOptions {
  readmePath: string;
  logoPath?: string;
}

export interface DescribeReport {
  repository: string;
  tag: string;
  manifestDigest: string;
  layers: Descriptor[];
  /** `unchanged`: the tag held this very manifest already, and nothing was pushed. */
  status: "published" | "unchanged";
}

const EMPTY_CONFIG = Buffer.from("{}");
/** Registries and catalogs cap what they will render; a description is text and a small logo. */
const MAX_DESCRIPTION_FILE = 4 * 1024 * 1024;

function logoMediaType(path: string): string {
  const ext = extname(path).toLowerCase();
  if (ext === ".svg") return PackageMediaType.LogoSvg;
  if (ext === ".png") return PackageMediaType.LogoPng;
  throw usageError(`--logo ${path}: the logo must be a .svg or .png file`);
}

async function readDescriptionFile(path: string, what: string): Promise<Buffer> {
  const bytes = await readFile(path).catch(() => {
    throw dataError(`${what} ${path}: no such file`);
  });
  if (bytes.length > MAX_DESCRIPTION_FILE) throw dataError(`${what} ${path}: larger than 4 MiB`);
  return bytes;
}

/**
 * Publishes a repository's description: a manifest at the `__pkg.desc` tag whose layers are the
 * README (Markdown) and, optionally, a logo (SVG or PNG; bytes that are not what the extension
 * says are exit 65). When the tag holds that very manifest already, nothing is pushed.
 */
export async function describePackage(target: Target, options: DescribeOptions): Promise<DescribeReport> {
  const logoType = options.logoPath === undefined ? undefined : logoMediaType(options.logoPath);
  const files: Array<{ bytes: Buffer; mediaType: string; title: string }> = [
    {
      bytes: await readDescriptionFile(options.readmePath, "--readme"),
      mediaType: PackageMediaType.Readme,
      title: basename(options.readmePath),
    },
  ];
  if (options.logoPath !== undefined && logoType !== undefined) {
    const bytes = await readDescriptionFile(options.logoPath, "--logo");
    checkLogoBytes(bytes, logoType === PackageMediaType.LogoSvg ? "svg" : "png", options.logoPath);
    files.push({ bytes, mediaType: logoType, title: basename(options.logoPath) });
  }
  const config = memoryBlob(EMPTY_CONFIG);
  const blobs = files.map((file) => ({ file, source: memoryBlob(file.bytes) }));
  const layers: Descriptor[] = blobs.map(({ file, source }) => ({
    mediaType: file.mediaType,
    digest: source.digest,
    size: source.size,
    annotations: { "org.opencontainers.image.title": file.title },
  }));
  const manifest: ImageManifest = {
    schemaVersion: 2,
    mediaType: MediaType.ImageManifest,
    artifactType: PackageMediaType.DescriptionArtifact,
    config: { mediaType: MediaType.EmptyJson, digest: config.digest, size: config.size },
    layers,
  };
  const bytes = canonicalJson(manifest);
  const report = { repository: target.displayName, tag: DESCRIPTION_TAG, layers };
  const current = await target.fetchManifest(DESCRIPTION_TAG);
  if (current?.descriptor.digest === sha256Digest(bytes)) {
    return { ...report, manifestDigest: current.descriptor.digest, status: "unchanged" };
  }
  await target.pushBlob(config);
  for (const { source } of blobs) await target.pushBlob(source);
  const descriptor = await target.pushManifest(bytes, MediaType.ImageManifest, DESCRIPTION_TAG);
  return { ...report, manifestDigest: descriptor.digest, status: "published" };
}
