import { link, mkdir, open, symlink, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { dataError } from "@pkg/common";
import type { Header } from "tar-stream";
import { archivePathSegments, type ExtractionRecord } from "./extract-guard.js";
import { linkLeavesTree } from "./symlink-guard.js";
import { writeAll } from "./write-all.js";

/** Set-uid, set-gid and sticky bits are dropped: a pulled package never grants more than rwx. */
const PERMISSIONS = 0o777;

/** Body chunks gathered into one `writev`: a decompressor gives chunks of a few KiB each. */
const BATCH_BYTES = 1 << 20;

async function writeBody(target: string, body: AsyncIterable<unknown>, mode: number): Promise<void> {
  const handle = await open(target, "wx");
  try {
    // the parser hands out views of buffers it does not reuse, so holding them until the write is safe
    let batch: Uint8Array[] = [];
    let batched = 0;
    for await (const chunk of body) {
      if (!(chunk instanceof Uint8Array))
        throw new TypeError("the tar parser gave a chunk that is not bytes");
      batch.push(chunk);
      batched += chunk.length;
      if (batched < BATCH_BYTES) continue;
      await writeAll(handle, batch);
      batch = [];
      batched = 0;
    }
    await writeAll(handle, batch);
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

/** The error for a symlink that points outside the extracted tree. */
export function escapingLink(name: string, target: string) {
  return dataError(
    `archive entry ${JSON.stringify(name)} is a symlink to ${JSON.stringify(target)}, outside the package tree`,
  );
}

/** The state of one extraction into a fresh directory. */
export interface Extraction {
  root: string;
  record: ExtractionRecord;
  /**
   * Every symlink extracted, relative path to target, for the check of chains once all are known
   * (`findEscapingLink`); a caller that judges links its own way may leave it out.
   */
  links?: Map<string, string>;
  dirModes: Map<string, number>;
  entries: number;
}

/** Writes one archive entry under `into.root`, refusing anything that would land outside it. */
export async function extractEntry(
  header: Header,
  body: AsyncIterable<unknown>,
  into: Extraction,
): Promise<void> {
  const { name } = header;
  const segments = archivePathSegments(name);
  if (segments.length === 0) return;
  into.record.checkParents(name, segments);
  const relative = segments.join("/");
  const target = join(into.root, ...segments);
  const mode = (header.mode ?? 0o644) & PERMISSIONS;
  // an entry that replaces a symlink the archive gave before (it may: see makeRoom) ends that link
  if (header.type !== "directory") into.links?.delete(relative);
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
    case "symlink": {
      const linkname = header.linkname ?? "";
      if (linkLeavesTree(relative, linkname)) throw escapingLink(name, linkname);
      await makeRoom(name, relative, target, into.record);
      // the target is kept verbatim; what it points to is never written through
      await symlink(linkname, target);
      into.record.add(segments, "symlink");
      into.links?.set(relative, linkname);
      return;
    }
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
