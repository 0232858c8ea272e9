import { ExitCode, PkgError } from "@pkg/common";
import { DEFAULT_NAME_SEGMENTS } from "../grammar.js";
import { parseCatalogIndex } from "../parse-catalog-index.js";
import { parseIndexConfig } from "../parse-config.js";
import type { IndexConfig } from "../types.js";
import type { IndexFileReader } from "./file-reader.js";
import { createLimiter } from "./limiter.js";
import { CATALOG_INDEX_MAX_BYTES, CONFIG_MAX_BYTES } from "./limits.js";
import { readPackage } from "./read-package.js";
import type { LoadedPackage } from "./types.js";

/** An index read and verified, before its label is settled. */
export interface WalkedIndex {
  config: IndexConfig;
  /** Sorted by path; each with the label its root name starts with. */
  packages: { pkg: LoadedPackage; label: string }[];
  /** Every file read, by index-relative path; empty when `onFiles` took them. */
  files: Map<string, Uint8Array>;
  warnings: string[];
  /** Packages not read because the caller still holds them (`reuse`), with the label it gave. */
  reused: { key: string; label: string }[];
}

export interface WalkOptions {
  /** Prefix of warning lines: `sources[0]`. */
  source: string;
  /** Files read at once. */
  concurrency: number;
  /** A package the caller still holds from an earlier walk, asked with its c/index.json key and
   *  root digest: a label returned means it is not read again (the same digest names the same
   *  bytes), and it is listed in `reused` under that label. */
  reuse?: (key: string, digest: string) => string | undefined;
  /** Takes the files as soon as they are read and verified (config.json and c/index.json, then each
   *  package's files once the package is complete, with the label its name starts with). The walk
   *  then keeps none of their bytes: `files` stays empty and packages have no `readme` (its bytes
   *  went to `onFiles`). */
  onFiles?: (files: [string, Uint8Array][], label?: string) => void | Promise<void>;
  /** Told of each package as soon as it is read (after `onFiles` took its files), with its label. */
  onPackage?: (pkg: LoadedPackage, label: string) => void;
}

/** Walks config.json → c/index.json → every root → its image indexes, readme and logo. */
export async function walkIndex(reader: IndexFileReader, options: WalkOptions): Promise<WalkedIndex> {
  const limit = createLimiter(options.concurrency);
  const limited: IndexFileReader = {
    describe: reader.describe,
    read: (relPath, request) => limit(() => reader.read(relPath, request)),
    readFirst: (relPaths, request) => limit(() => reader.readFirst(relPaths, request)),
  };
  const configBytes = await readRequired(limited, "config.json", CONFIG_MAX_BYTES);
  const config = parseIndexConfig(configBytes, reader.describe("config.json"));
  const nameSegments = config.name_segments ?? DEFAULT_NAME_SEGMENTS;
  const catalogBytes = await readRequired(limited, "c/index.json", CATALOG_INDEX_MAX_BYTES);
  const warnings: string[] = [];
  const catalog = parseCatalogIndex(catalogBytes, reader.describe("c/index.json"), {
    nameSegments,
    onBadEntry: (key, message) =>
      warnings.push(`${options.source}: skipped package ${JSON.stringify(key)}: ${message}`),
  });

  const { onFiles, reuse } = options;
  const files = new Map<string, Uint8Array>();
  const topFiles: [string, Uint8Array][] = [
    ["config.json", configBytes],
    ["c/index.json", catalogBytes],
  ];
  if (onFiles) await onFiles(topFiles);
  else for (const [path, bytes] of topFiles) files.set(path, bytes);

  const ctx = { reader: limited, nameSegments, source: options.source };
  const keys = Object.keys(catalog.packages).sort();
  const reused: WalkedIndex["reused"] = [];
  const read = async (key: string, digest: string) => {
    const outcome = await readPackage(ctx, key, digest);
    if (onFiles && outcome.ok) {
      await onFiles(outcome.files, outcome.label);
      outcome.files = [];
      delete outcome.pkg.readme;
    }
    if (outcome.ok) options.onPackage?.(outcome.pkg, outcome.label);
    return outcome;
  };
  // packages are read a few at a time (their files are what is read at once): ten thousand walks
  // started together would hold ten thousand suspended reads
  const packageLimit = createLimiter(options.concurrency);
  const outcomes = await Promise.all(
    keys.flatMap((key) => {
      const digest = catalog.packages[key] as string;
      const label = reuse?.(key, digest);
      if (label === undefined) return [packageLimit(() => read(key, digest))];
      reused.push({ key, label });
      return [];
    }),
  );

  const packages: WalkedIndex["packages"] = [];
  for (const outcome of outcomes) {
    if (!outcome.ok) {
      warnings.push(outcome.warning);
      continue;
    }
    packages.push({ pkg: outcome.pkg, label: outcome.label });
    for (const [path, bytes] of outcome.files) files.set(path, bytes);
    warnings.push(...outcome.warnings);
  }
  return { config, packages, files, warnings, reused };
}

async function readRequired(reader: IndexFileReader, relPath: string, maxBytes: number): Promise<Uint8Array> {
  const bytes = await reader.read(relPath, { maxBytes });
  if (bytes === undefined) {
    throw new PkgError(ExitCode.Data, `${reader.describe(relPath)}: not found; not a package index`);
  }
  return bytes;
}
