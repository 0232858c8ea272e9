import { createReadStream } from "node:fs";
import { chmod, link, lstat, mkdir, open, readdir, symlink, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { dataError, isPkgError, usageError } from "@pkg/common";
import { type Header, extract as tarExtract } from "tar-stream";
import { writeAtomically } from "./atomic-output.js";
import { type ArchiveKind, DETECT_BYTES, decompressor, detectArchive } from "./codecs.js";
import { DigestTap } from "./digest-tap.js";
import { archivePathSegments, ExtractionRecord } from "./extract-guard.js";

export interface ExtractBundleOptions {
  /** `sha256:<hex>` the file must have; checked as it is read, before anything is kept. */
  expectedDigest?: string;
}

export interface ExtractResult {
  kind: ArchiveKind;
  /** `sha256:<hex>` of the file as read. */
  digest: string;
  entries: number;
}

/** Set-uid, set-gid and sticky bits are dropped: a pulled package never grants more than rwx. */
const PERMISSIONS = 0o777;

async function readKind(file: string): Promise<ArchiveKind> {
  const handle = await open(file, "r");
  try {
    const head = Buffer.alloc(DETECT_BYTES);
    const { bytesRead } = await handle.read(head, 0, DETECT_BYTES, 0);
    const kind = detectArchive(head.subarray(0, bytesRead));
    if (!kind) throw dataError(`${file}: not a zstd, xz or tar archive`);
    return kind;
  } finally {
    await handle.close();
  }
}

async function checkDestination(destDir: string): Promise<void> {
  const info = await lstat(destDir).catch(() => undefined);
  if (!info) return;
  if (!info.isDirectory() || (await readdir(destDir)).length > 0) {
    throw usageError(`${destDir}: already exists and is not an empty directory`);
  }
}

async function writeBody(target: string, body: AsyncIterable<unknown>, mode: number): Promise<void> {
  const handle = await open(target, "wx");
  try {
    for await (const chunk of body) {
      if (!(chunk instanceof Uint8Array))
        throw new TypeError("the tar parser gave a chunk that is not bytes");
      await handle.write(chunk);
    }
    await handle.chmod(mode);
  } finally {
    await handle.close();
  }
}

/** Makes room for an entry at `relative`: a directory is never replaced, anything else the archive repeats is. */
async function makeRoom(
  name: string,
  relative: string,
  target: string,
  record: ExtractionRecord,
): Promise<void> {
  const existing = record.kindOf(relative);
  if (existing === "directory")
    throw dataError(`archive entry ${JSON.stringify(name)} would replace a directory`);
  if (existing) await unlink(target);
  await mkdir(dirname(target), { recursive: true });
}

interface Extraction {
  root: string;
  record: ExtractionRecord;
  dirModes: Map<string, number>;
  entries: number;
}

async function extractEntry(header: Header, body: AsyncIterable<unknown>, into: Extraction): Promise<void> {
  const { name } = header;
  const segments = archivePathSegments(name);
  if (segments.length === 0) return;
  into.record.checkParents(name, segments);
  const relative = segments.join("/");
  const target = join(into.root, ...segments);
  const mode = (header.mode ?? 0o644) & PERMISSIONS;
  switch (header.type) {
    case "directory": {
      const existing = into.record.kindOf(relative);
      if (existing && existing !== "directory") {
        throw dataError(`archive entry ${JSON.stringify(name)} would replace a ${existing} with a directory`);
      }
      await mkdir(target, { recursive: true });
      into.dirModes.set(target, mode);
      into.record.add(segments, "directory");
      return;
    }
    case "file":
    case "contiguous-file":
      await makeRoom(name, relative, target, into.record);
      await writeBody(target, body, mode);
      into.record.add(segments, "file");
      return;
    case "symlink":
      await makeRoom(name, relative, target, into.record);
      // the target is data, kept verbatim; what it points to is never written through
      await symlink(header.linkname ?? "", target);
      into.record.add(segments, "symlink");
      return;
    case "link": {
      const linkSegments = archivePathSegments(header.linkname ?? "");
      into.record.checkParents(header.linkname ?? "", linkSegments);
      if (into.record.kindOf(linkSegments.join("/")) !== "file") {
        throw dataError(
          `archive entry ${JSON.stringify(name)} is a hard link to ${header.linkname}, not an earlier file`,
        );
      }
      await makeRoom(name, relative, target, into.record);
      await link(join(into.root, ...linkSegments), target);
      into.record.add(segments, "file");
      return;
    }
    default:
      throw dataError(
        `archive entry ${JSON.stringify(name)} is a ${header.type}; only files, directories and links are extracted`,
      );
  }
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
): Promise<Extraction> {
  await mkdir(root);
  const into: Extraction = { root, record: new ExtractionRecord(), dirModes: new Map(), entries: 0 };
  const parser = tarExtract();
  const unpack = decompressor(kind);
  const source = createReadStream(file, { highWaterMark: 1 << 20 });
  const feeding = unpack ? pipeline(source, tap, unpack, parser) : pipeline(source, tap, parser);
  try {
    for await (const body of parser) {
      await extractEntry(body.header, body, into);
      into.entries++;
    }
    await feeding;
  } catch (error) {
    source.destroy();
    await feeding.catch(() => undefined);
    throw asDataError(file, error);
  }
  return into;
}

/** Deepest first, so that a read-only directory never blocks the mode change of one inside it. */
async function applyDirModes(dirModes: Map<string, number>): Promise<void> {
  for (const [dir, mode] of [...dirModes].sort(([a], [b]) => b.length - a.length)) await chmod(dir, mode);
}

/**
 * Extracts a bundle (tar, tar+zstd or tar+xz, told by its leading bytes) into `destDir`, which must
 * not exist or be empty. Everything is written into a temporary directory beside it and renamed only
 * when the whole archive was read, its digest matched and no entry tried to escape; otherwise
 * nothing is left behind.
 */
export async function extractBundle(
  file: string,
  destDir: string,
  options: ExtractBundleOptions = {},
): Promise<ExtractResult> {
  await checkDestination(destDir);
  const kind = await readKind(file);
  const tap = new DigestTap();
  return writeAtomically(destDir, "extraction", async (temp) => {
    const { dirModes, entries } = await extractInto(file, kind, temp, tap);
    const digest = tap.digest();
    if (options.expectedDigest !== undefined && digest !== options.expectedDigest) {
      throw dataError(`${file}: digest mismatch: expected ${options.expectedDigest}, got ${digest}`);
    }
    await applyDirModes(dirModes);
    return { kind, digest, entries };
  });
}
