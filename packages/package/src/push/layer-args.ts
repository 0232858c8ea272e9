import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { dataError, forEachFileChunk, usageError } from "@pkg/common";
import type { BlobSource } from "@pkg/oci";
import { type ArchiveKind, detectArchiveFile } from "../bundle/archive-kind.js";
import { trustedSidecarDigest } from "../bundle/digest-sidecar.js";
import { PackageMediaType } from "../media-types.js";

/** A layer named on the command line: `file` or `file:from=<repository>`. */
export interface LayerArg {
  path: string;
  /** Repository to try a cross-repository mount from before uploading. */
  mountFrom?: string;
  /** `sha256:<hex>` of the file, when the caller has just checked it (not hashed again). */
  digest?: string;
}

const REPOSITORY = /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*)*$/;

export function parseLayerArg(arg: string): LayerArg {
  const at = arg.lastIndexOf(":from=");
  if (at < 0) return { path: arg };
  const path = arg.slice(0, at);
  const mountFrom = arg.slice(at + ":from=".length);
  if (path === "") throw usageError(`layer ${JSON.stringify(arg)} names no file before :from=`);
  if (!REPOSITORY.test(mountFrom)) {
    throw usageError(`layer ${JSON.stringify(arg)}: ${JSON.stringify(mountFrom)} is not a repository path`);
  }
  return { path, mountFrom };
}

const layerMediaTypes: Partial<Record<ArchiveKind, string>> = {
  zstd: PackageMediaType.LayerZstd,
  xz: PackageMediaType.LayerXz,
};

/** The layer media type, read from the file's leading bytes (the extension may lie). */
async function layerMediaType(path: string): Promise<string> {
  const kind = await detectArchiveFile(path);
  const mediaType = kind && layerMediaTypes[kind];
  if (mediaType) return mediaType;
  throw dataError(`${path}: not a tar+zstd or tar+xz bundle (create one with \`pkg package create\`)`);
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  await forEachFileChunk(path, (chunk) => hash.update(chunk));
  return `sha256:${hash.digest("hex")}`;
}

export interface LocalLayer {
  arg: LayerArg;
  mediaType: string;
  source: BlobSource;
}

/** What identifies a file's content without reading it: changed by any write to the file. */
async function fileVersion(path: string): Promise<string> {
  const info = await stat(path, { bigint: true });
  return [info.dev, info.ino, info.size, info.mtimeNs, info.ctimeNs].join(":");
}

/**
 * A layer file's digest, size and type; missing or odd files are data errors. The digest is the
 * one the caller checked (`arg.digest`), else the bundle's `.digest.json` sidecar when `package
 * create` left one that still describes the file, else the file hashed here. A digest that is not
 * the bytes' fails the upload, never lands. Either way the file's identity (inode, size,
 * modification time) is taken first, and the upload asks whether the file is still that one
 * before it commits, instead of hashing the bytes a second time.
 */
export async function readLocalLayer(arg: LayerArg): Promise<LocalLayer> {
  const info = await stat(arg.path).catch(() => {
    throw dataError(`layer ${arg.path}: no such file`);
  });
  if (!info.isFile()) throw dataError(`layer ${arg.path}: not a regular file`);
  const mediaType = await layerMediaType(arg.path);
  const open = () => createReadStream(arg.path, { highWaterMark: 1 << 20 });
  const version = await fileVersion(arg.path);
  const digest = arg.digest ?? (await trustedSidecarDigest(arg.path)) ?? (await sha256File(arg.path));
  return {
    arg,
    mediaType,
    source: {
      digest,
      size: info.size,
      open,
      unchanged: async () => (await fileVersion(arg.path).catch(() => "")) === version,
    },
  };
}
