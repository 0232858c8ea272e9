/**
 * One wheel to one deterministic `tar.zst` layer of an environment package: unpacked with the
 * asset unpacker (escaping entries, special files and bombs refused; at most 1 GiB decompressed),
 * each file checked against RECORD, relocated as `planWheelLayout` says (modes 0644, scripts 0755),
 * and written by the package tool's bundle writer (sorted entries, mtime 0, uid/gid 0, zstd 3).
 */
import { createHash } from "node:crypto";
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { ExitCode, PkgError } from "@pkg/common";
import { type BundleResult, type CreateBundleOptions, createBundle } from "@pkg/package/bundle";
import { parseWheelFilename } from "../../python/tags.js";
import {
  type ConsoleScript,
  checkRecorded,
  parseConsoleScripts,
  parseRecord,
  planWheelLayout,
  SITE_PACKAGES,
} from "../../python/wheel-layout.js";
import { unpackAsset } from "../unpack/index.js";

/** The repack format; a change to the layer's bytes for the same wheel bumps it. */
export const REPACK_VERSION = "repack-v1";
/** Zip-bomb guard: bytes a wheel may unpack to. */
export const MAX_WHEEL_BYTES = 1024 ** 3;

export interface RepackedWheel {
  /** The wheel's file name. */
  wheel: string;
  /** PEP 503 name of its distribution. */
  distribution: string;
  layer: string;
  /** `sha256:<hex>` of the layer file, its size and media type. */
  digest: string;
  size: number;
  mediaType: string;
  /** Files the layer installs, relative to the content root, sorted. */
  paths: string[];
  consoleScripts: ConsoleScript[];
}

export interface RepackOptions {
  /** The downloaded wheel. */
  file: string;
  /** Its file name as locked (the download may be named otherwise). */
  wheel: string;
  /** The layer to write (`.tar.zst`). */
  output: string;
  /** Where scratch directories go; default beside `output`. */
  scratch?: string;
  /** Writes the bundle; default `createBundle` on this thread. */
  create?: (options: CreateBundleOptions) => Promise<BundleResult>;
}

async function filesUnder(root: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name).slice(root.length + 1);
    if (entry.isDirectory()) continue;
    if (!entry.isFile())
      throw new PkgError(ExitCode.Data, `${path} is not a regular file; a wheel holds only files`);
    files.push(path.split("\\").join("/"));
  }
  return files;
}

export async function repackWheel(options: RepackOptions): Promise<RepackedWheel> {
  const { wheel } = options;
  const parsed = parseWheelFilename(wheel);
  if (!parsed) throw new PkgError(ExitCode.Data, `${wheel} is not a wheel file name (PEP 427)`);
  const scratchParent = options.scratch ?? dirname(options.output);
  await mkdir(scratchParent, { recursive: true });
  const scratch = await mkdtemp(join(scratchParent, ".repack-"));
  try {
    const unpacked = join(scratch, "wheel");
    await unpackAsset(options.file, unpacked, {
      assetType: { type: "archive", strip_components: 0 },
      platform: "any",
      assetName: wheel,
      limits: { maxBytes: MAX_WHEEL_BYTES },
    });
    const files = await filesUnder(unpacked).catch((error: unknown) => {
      throw error instanceof PkgError ? new PkgError(error.exitCode, `${wheel}: ${error.message}`) : error;
    });
    const recordPath = files.find((f) => /^[^/]+\.dist-info\/RECORD$/.test(f));
    if (recordPath === undefined) throw new PkgError(ExitCode.Data, `${wheel}: has no .dist-info/RECORD`);
    const record = parseRecord(await readFile(join(unpacked, recordPath), "utf8"), wheel);
    const layout = planWheelLayout(wheel, parsed.name, files, record);

    const tree = join(scratch, "layer");
    for (const placement of layout.placements) {
      const from = join(unpacked, placement.from);
      const entry = record.get(placement.from);
      if (entry?.algorithm !== undefined) {
        const bytes = await readFile(from);
        const digest = createHash(entry.algorithm).update(bytes).digest("base64url");
        checkRecorded(wheel, placement.from, entry, digest, bytes.length);
      }
      const to = join(tree, placement.to);
      await mkdir(dirname(to), { recursive: true });
      if ((await lstat(to).catch(() => undefined)) !== undefined) {
        throw new PkgError(ExitCode.Data, `${wheel}: two of its files install ${placement.to}`);
      }
      await rename(from, to);
      await chmod(to, placement.executable ? 0o755 : 0o644);
    }
    const distInfo = join(tree, SITE_PACKAGES, layout.distInfo);
    const entryPoints = await readFile(join(distInfo, "entry_points.txt"), "utf8").catch(() => "");
    const consoleScripts = parseConsoleScripts(entryPoints, wheel);
    const create = options.create ?? createBundle;
    const bundle = await create({ sourceDir: tree, output: options.output, mtime: 0, level: 3, threads: 1 });
    return {
      wheel,
      distribution: parsed.name,
      layer: options.output,
      digest: bundle.digest,
      size: bundle.size,
      mediaType: bundle.mediaType,
      paths: layout.placements.map((p) => p.to).sort(),
      consoleScripts,
    };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
