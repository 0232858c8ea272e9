import { chmod, mkdir, stat } from "node:fs/promises";
import { basename } from "node:path";
import { dataError, describeError, ExitCode, isPkgError, PkgError, writeAtomically } from "@pkg/common";
import { checkEmptyDestination, ExtractionRecord } from "@pkg/package/bundle";
import { binaryFileName } from "./binary-name.js";
import { type AssetFormat, describeFormat } from "./formats.js";
import { DEFAULT_UNPACK_LIMITS, UnpackBudget, type UnpackLimits } from "./limits.js";
import { placeBinary } from "./place-binary.js";
import { type Placement, recheckSymlinks } from "./place-entry.js";
import { sniffAsset } from "./sniff.js";
import { unpackTar } from "./unpack-tar.js";
import { unpackZip } from "./unpack-zip.js";

/** `asset_type` resolved for one platform (see `assetTypeFor`). */
export type UnpackAssetType =
  | { type: "archive"; strip_components: number }
  | { type: "binary"; name: string };

export interface UnpackOptions {
  assetType: UnpackAssetType;
  /** The platform key the asset is for; decides `.exe` for Windows binaries. */
  platform: string;
  /** The asset's name as published upstream, for messages and `.exe`; default the file's base name. */
  assetName?: string;
  limits?: Partial<UnpackLimits>;
}

export interface UnpackResult {
  format: AssetFormat;
  /** Archive entries read (dropped ones included), or 1 for a binary. */
  entries: number;
  /** Bytes after decompression. */
  bytes: number;
}

/** Refuses an asset whose content does not fit its declared `asset_type`. */
function checkFits(format: AssetFormat, assetType: UnpackAssetType): void {
  const isArchive = format.kind === "tar" || format.kind === "zip";
  if (assetType.type === "archive" && !isArchive) {
    throw dataError(
      `is ${describeFormat(format)}, not an archive; declare asset_type type: binary with the executable's name`,
    );
  }
  if (assetType.type === "binary" && format.kind === "tar") {
    throw dataError(`is ${describeFormat(format)}, not an executable; declare asset_type type: archive`);
  }
}

/** Deepest first, so that a read-only directory never blocks changing one inside it; owners keep rwx so later steps can write and delete. */
async function applyDirModes(dirModes: Map<string, number>): Promise<void> {
  for (const [dir, mode] of [...dirModes].sort(([a], [b]) => b.length - a.length))
    await chmod(dir, mode | 0o700);
}

async function unpackArchive(
  file: string,
  format: AssetFormat,
  root: string,
  placement: Placement,
): Promise<void> {
  await mkdir(root);
  if (format.kind === "zip") await unpackZip(file, placement);
  else if (format.kind === "tar") await unpackTar(file, format.compression, placement);
  recheckSymlinks(placement);
  await applyDirModes(placement.extraction.dirModes);
}

/** Names the asset in every error; anything that is not already a PkgError comes from a decoder and means a corrupt file. */
function namedError(asset: string, format: AssetFormat | undefined, error: unknown): PkgError {
  if (isPkgError(error)) {
    return new PkgError(error.exitCode, `${asset}: ${error.message}`, { cause: error, detail: error.detail });
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code === "string" && code.startsWith("E") && !code.startsWith("ERR_")) {
    return new PkgError(describeError(error).exitCode, `${asset}: ${message}`, { cause: error });
  }
  const what = format ? describeFormat(format) : "the file";
  return new PkgError(ExitCode.Data, `${asset}: corrupt data in ${what}: ${message}`, { cause: error });
}

async function naming<T>(asset: string, format: AssetFormat | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw namedError(asset, format, error);
  }
}

/**
 * Turns a downloaded asset into the package content tree at `destDir` (absent or empty). The format
 * is told by leading bytes, never by name: tar (plain, gzip, xz, zstd, bzip2), zip, a single
 * compressed file, or a plain file. Nothing is written outside `destDir`: escaping entries, device
 * files and bombs past `limits` (total bytes, entries, or the expansion ratio over the asset's
 * size) fail with exit 65 naming the asset as soon as the limit is passed, and the tree is built
 * beside `destDir` and renamed into place only when complete (a refused one is removed).
 */
export async function unpackAsset(
  file: string,
  destDir: string,
  options: UnpackOptions,
): Promise<UnpackResult> {
  const asset = options.assetName ?? basename(file);
  const { assetType } = options;
  await checkEmptyDestination(destDir);
  const { format, size } = await naming(asset, undefined, async () => {
    const sniffed = await sniffAsset(file);
    checkFits(sniffed, assetType);
    return { format: sniffed, size: (await stat(file)).size };
  });
  const budget = new UnpackBudget({ ...DEFAULT_UNPACK_LIMITS, ...options.limits }, size);
  await writeAtomically(destDir, "unpacked asset", (root) =>
    naming(asset, format, async () => {
      if (assetType.type === "archive") {
        const extraction = {
          root,
          record: new ExtractionRecord(),
          dirModes: new Map<string, number>(),
          entries: 0,
        };
        await unpackArchive(file, format, root, {
          strip: assetType.strip_components,
          budget,
          extraction,
          links: new Map(),
        });
        return;
      }
      const compression = format.kind === "compressed-file" ? format.compression : undefined;
      await placeBinary(
        file,
        compression,
        root,
        binaryFileName(assetType.name, asset, options.platform),
        budget,
      );
    }),
  );
  return { format, entries: budget.entries, bytes: budget.bytes };
}
