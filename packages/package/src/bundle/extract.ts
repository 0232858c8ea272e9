import { createReadStream } from "node:fs";
import { chmod, mkdir } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { dataError, isPkgError, writeAtomically } from "@pkg/common";
import { extract as tarExtract } from "tar-stream";
import { type ArchiveKind, detectArchiveFile } from "./archive-kind.js";
import { decompressor } from "./codecs.js";
import { DigestTap } from "./digest-tap.js";
import { checkEmptyDestination } from "./empty-destination.js";
import { type Extraction, escapingLink, extractEntry } from "./extract-entry.js";
import { ExtractionRecord } from "./extract-guard.js";
import { findEscapingLink } from "./symlink-guard.js";

export interface ExtractBundleOptions {
  /** `sha256:<hex>` the file must have; checked as it is read, before anything is kept. */
  expectedDigest?: string;
}

export interface ExtractResult {
  kind: ArchiveKind;
  /** `sha256:<hex>` of the file as read. */
  digest: string;
  entries: number;
  /**
   * The symlinks extracted, relative path to target: each stays inside the tree, also through the
   * others. A caller that merges several trees checks their union with `findEscapingLink`.
   */
  links: ReadonlyMap<string, string>;
}

async function readKind(file: string): Promise<ArchiveKind> {
  const kind = await detectArchiveFile(file);
  if (!kind) throw dataError(`${file}: not a zstd, xz or tar archive`);
  return kind;
}

/** Errors of the decompressor or the tar parser mean a corrupt file; system errors keep their own meaning. */
function asDataError(file: string, error: unknown): unknown {
  if (isPkgError(error)) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === "string" && code.startsWith("E") && !code.startsWith("ERR_")) return error;
  const message = error instanceof Error ? error.message : String(error);
  return dataError(`${file}: corrupt archive: ${message}`);
}

async function extractInto(
  file: string,
  kind: ArchiveKind,
  root: string,
  tap: DigestTap,
): Promise<Extraction & { links: Map<string, string> }> {
  await mkdir(root);
  const links = new Map<string, string>();
  const into: Extraction = { root, record: new ExtractionRecord(), links, dirModes: new Map(), entries: 0 };
  const parser = tarExtract();
  const unpack = decompressor(kind);
  const source = createReadStream(file, { highWaterMark: 1 << 20 });
  const feeding = unpack ? pipeline(source, tap, unpack, parser) : pipeline(source, tap, parser);
  // it may fail while an entry is being written: marked handled now, awaited (and thrown) below
  feeding.catch(() => undefined);
  try {
    for await (const body of parser) {
      await extractEntry(body.header, body, into);
      into.entries++;
    }
    await feeding;
    const escaping = findEscapingLink(links);
    if (escaping !== undefined) throw escapingLink(escaping, links.get(escaping) ?? "");
  } catch (error) {
    source.destroy();
    await feeding.catch(() => undefined);
    throw asDataError(file, error);
  }
  return { ...into, links };
}

/** Deepest first, so that a read-only directory never blocks the mode change of one inside it. */
async function applyDirModes(dirModes: Map<string, number>): Promise<void> {
  for (const [dir, mode] of [...dirModes].sort(([a], [b]) => b.length - a.length)) await chmod(dir, mode);
}

/**
 * Extracts a bundle (tar, tar+zstd or tar+xz, told by its leading bytes) into `destDir`, which must
 * not exist or be empty. Everything is written into a temporary directory beside it and renamed only
 * when the whole archive was read, its digest matched and no entry tried to escape (a path out of
 * the tree, a write through a symlink, a symlink that points outside, also through other links);
 * otherwise nothing is left behind.
 */
export async function extractBundle(
  file: string,
  destDir: string,
  options: ExtractBundleOptions = {},
): Promise<ExtractResult> {
  await checkEmptyDestination(destDir);
  const kind = await readKind(file);
  const tap = new DigestTap();
  return writeAtomically(destDir, "extraction", async (temp) => {
    const { dirModes, entries, links } = await extractInto(file, kind, temp, tap);
    const digest = tap.digest();
    if (options.expectedDigest !== undefined && digest !== options.expectedDigest) {
      throw dataError(`${file}: digest mismatch: expected ${options.expectedDigest}, got ${digest}`);
    }
    await applyDirModes(dirModes);
    return { kind, digest, entries, links };
  });
}
