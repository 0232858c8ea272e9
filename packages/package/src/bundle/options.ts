import { availableParallelism } from "node:os";
import { usageError } from "@pkg/common";
import { PackageMediaType } from "../media-types.js";

export type BundleFormat = "tar.zst" | "tar.xz";

export interface CreateBundleOptions {
  /** Directory whose contents become the bundle; it is not itself an entry. */
  sourceDir: string;
  /** File to write; its extension picks the format unless `format` is given. */
  output: string;
  format?: BundleFormat;
  /** zstd 1..19 (default 3), xz preset 0..9 (default 6). */
  level?: number;
  /**
   * Compression threads, 0 = all cores (the default). The zstd bytes are the same for every value.
   * The xz bytes are the same for every value except 1, which selects liblzma's single-threaded
   * encoder (one block, no block sizes in the headers).
   */
  threads?: number;
  /**
   * The mtime of every entry, in seconds since the epoch. Default: `SOURCE_DATE_EPOCH` when set, else 0.
   */
  mtime?: number;
  /** Called as the tar stream grows, with the uncompressed bytes produced so far. */
  onProgress?: (bytesIn: number) => void;
}

interface FormatSpec {
  mediaType: string;
  levels: { min: number; max: number; default: number };
}

const formats: Record<BundleFormat, FormatSpec> = {
  "tar.zst": { mediaType: PackageMediaType.LayerZstd, levels: { min: 1, max: 19, default: 3 } },
  "tar.xz": { mediaType: PackageMediaType.LayerXz, levels: { min: 0, max: 9, default: 6 } },
};

const formatNames = Object.keys(formats) as BundleFormat[];

/** What a bundle is written with, once the options are checked. */
export interface BundlePlan {
  format: BundleFormat;
  mediaType: string;
  level: number;
  /** Worker threads for the compressor: always >= 1. */
  threads: number;
  mtime: number;
}

function isBundleFormat(value: string): value is BundleFormat {
  return (formatNames as string[]).includes(value);
}

export function formatFromPath(output: string): BundleFormat {
  const match = formatNames.find((name) => output.endsWith(`.${name}`));
  if (!match) {
    const accepted = formatNames.map((name) => `.${name}`).join(" or ");
    throw usageError(`${output}: unknown bundle extension, expected ${accepted}`);
  }
  return match;
}

export function mediaTypeOf(format: BundleFormat): string {
  return formats[format].mediaType;
}

/** `SOURCE_DATE_EPOCH` as a number of seconds, 0 when unset; anything but a non-negative integer is a usage error. */
export function sourceDateEpoch(env: NodeJS.ProcessEnv): number {
  const raw = env.SOURCE_DATE_EPOCH;
  if (raw === undefined || raw === "") return 0;
  if (!/^\d{1,11}$/.test(raw)) {
    throw usageError(`SOURCE_DATE_EPOCH=${JSON.stringify(raw)} is not a number of seconds since 1970`);
  }
  return Number(raw);
}

function checkedLevel(format: BundleFormat, level: number | undefined): number {
  const { min, max, default: fallback } = formats[format].levels;
  if (level === undefined) return fallback;
  if (!Number.isInteger(level) || level < min || level > max) {
    throw usageError(`level ${level} is out of range for ${format}: expected ${min}..${max}`);
  }
  return level;
}

function checkedThreads(format: BundleFormat, threads: number | undefined): number {
  const requested = threads ?? 0;
  if (!Number.isInteger(requested) || requested < 0) {
    throw usageError(`threads ${requested} is not a count of threads (0 = all cores)`);
  }
  if (requested > 0) return requested;
  const cores = availableParallelism();
  // liblzma's threaded encoder is used from 2 threads on; keeping it on a one-core machine keeps
  // the default output the same on every machine.
  return format === "tar.xz" ? Math.max(2, cores) : cores;
}

/** Checks every option a caller can get wrong, before any file is touched. */
export function planBundle(options: CreateBundleOptions, env: NodeJS.ProcessEnv = process.env): BundlePlan {
  if (options.format !== undefined && !isBundleFormat(options.format)) {
    throw usageError(
      `unknown bundle format ${JSON.stringify(options.format)}, expected ${formatNames.join(" or ")}`,
    );
  }
  const format = options.format ?? formatFromPath(options.output);
  const mtime = options.mtime ?? sourceDateEpoch(env);
  if (!Number.isInteger(mtime) || mtime < 0 || mtime > 0o77777777777) {
    throw usageError(`mtime ${mtime} is not a number of seconds representable in a tar header`);
  }
  return {
    format,
    mediaType: mediaTypeOf(format),
    level: checkedLevel(format, options.level),
    threads: checkedThreads(format, options.threads),
    mtime,
  };
}
