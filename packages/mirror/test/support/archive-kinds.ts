import { execFile } from "node:child_process";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

const exec = promisify(execFile);

/** Every asset shape sync unpacks: tars by compression, zip, bare compressed binaries, a plain binary. */
export type ArchiveKind =
  | "tar.gz"
  | "tar.xz"
  | "tar.zst"
  | "tar.bz2"
  | "tar"
  | "zip"
  | "gz"
  | "xz"
  | "zst"
  | "bz2"
  | "binary";

type Compression = "gz" | "xz" | "zst" | "bz2";

const COMPRESSORS: Record<Compression, [string, ...string[]]> = {
  gz: ["gzip", "-nkf"],
  xz: ["xz", "-kf"],
  zst: ["zstd", "-qkf"],
  bz2: ["bzip2", "-kf"],
};

export const isArchiveKind = (kind: ArchiveKind) => kind.startsWith("tar") || kind === "zip";

/** The asset file name's ending for `kind` (empty for a plain binary). */
export const kindSuffix = (kind: ArchiveKind) => (kind === "binary" ? "" : `.${kind}`);

const isCompression = (kind: string): kind is Compression => Object.hasOwn(COMPRESSORS, kind);

/** Compresses `file` beside itself with the real tool; returns the compressed file's path. */
async function compress(file: string, compression: Compression): Promise<string> {
  const [tool, ...args] = COMPRESSORS[compression];
  await exec(tool, [...args, file]);
  return `${file}.${compression}`;
}

/**
 * Builds one asset of `kind` in the empty-or-new directory `dir` with the real tools. Archives
 * hold `script` at `<prefix...>/hello` (so `prefix.length` is the strip_components that brings it
 * to the top; the zip stores it without an executable bit); binaries are the script itself.
 */
export async function buildAsset(
  dir: string,
  kind: ArchiveKind,
  script: string,
  prefix: readonly string[] = [],
): Promise<Buffer> {
  const tree = join(dir, "tree");
  const inner = join(tree, ...prefix);
  await mkdir(inner, { recursive: true });
  const file = join(inner, "hello");
  await writeFile(file, script);
  await chmod(file, kind === "zip" ? 0o644 : 0o755);
  if (kind === "binary") return readFile(file);
  if (isCompression(kind)) return readFile(await compress(file, kind));
  const top = prefix[0] ?? "hello";
  if (kind === "zip") {
    await exec("zip", ["-qr", join(dir, "asset.zip"), top], { cwd: tree });
    return readFile(join(dir, "asset.zip"));
  }
  const tar = join(dir, "asset.tar");
  await exec("tar", ["-cf", tar, top], { cwd: tree });
  const compression = kind.slice("tar.".length);
  return readFile(isCompression(compression) ? await compress(tar, compression) : tar);
}
