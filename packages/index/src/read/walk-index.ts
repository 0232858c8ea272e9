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
  files: Map<string, Uint8Array>;
  warnings: string[];
}

export interface WalkOptions {
  /** Prefix of warning lines: `sources[0]`. */
  source: string;
  /** Files read at once. */
  concurrency: number;
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

  const ctx = { reader: limited, nameSegments, source: options.source };
  const keys = Object.keys(catalog.packages).sort();
  const outcomes = await Promise.all(
    keys.map((key) => readPackage(ctx, key, catalog.packages[key] as string)),
  );

  const files = new Map<string, Uint8Array>([
    ["config.json", configBytes],
    ["c/index.json", catalogBytes],
  ]);
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
  return { config, packages, files, warnings };
}

async function readRequired(reader: IndexFileReader, relPath: string, maxBytes: number): Promise<Uint8Array> {
  const bytes = await reader.read(relPath, { maxBytes });
  if (bytes === undefined) {
    throw new PkgError(ExitCode.Data, `${reader.describe(relPath)}: not found; not a package index`);
  }
  return bytes;
}
