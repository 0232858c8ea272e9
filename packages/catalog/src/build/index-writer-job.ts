import { closeSync, fstatSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { linkOrCopy } from "./commit.js";
import type { FileIdent } from "./memo.js";

/** Files to create (absolute path, bytes, how the file is named in a message), or second names to
 *  link (absolute paths of the file and of its second name). Every path was checked in the site. */
export type IndexWriterJob = { id: number } & (
  | { kind: "write"; files: [file: string, bytes: Uint8Array, shownAs: string][] }
  | { kind: "link"; links: [from: string, to: string, shownAs: string][] }
);

/** Per file: its identity (a link's is null: it is its file's). */
export type IndexWriterResult =
  | { id: number; idents: (FileIdent | null)[] }
  | { id: number; error: string; shownAs: string };

/** Directories this thread made (or found). */
const made = new Set<string>();

function ensureDir(dir: string): void {
  if (made.has(dir)) return;
  mkdirSync(dir, { recursive: true });
  made.add(dir);
}

function identOfFd(fd: number): FileIdent {
  const stats = fstatSync(fd);
  return [stats.ino, stats.size, stats.mtimeMs];
}

/** Creates `file` (which must not exist) with `bytes`. */
function createFile(file: string, bytes: Uint8Array): FileIdent {
  const fd = openSync(file, "wx");
  try {
    for (let done = 0; done < bytes.byteLength; ) done += writeSync(fd, bytes, done, bytes.byteLength - done);
    return identOfFd(fd);
  } finally {
    closeSync(fd);
  }
}

/** Runs one job; a failure is thrown with the failing file's `shownAs`. */
export function runIndexWriterJob(job: IndexWriterJob): (FileIdent | null)[] {
  const idents: (FileIdent | null)[] = [];
  const entries = job.kind === "write" ? job.files : job.links;
  for (const entry of entries) {
    try {
      if (job.kind === "write") {
        const [file, bytes] = entry as [string, Uint8Array, string];
        ensureDir(dirname(file));
        idents.push(createFile(file, bytes));
      } else {
        const [from, to] = entry as [string, string, string];
        ensureDir(dirname(to));
        if (linkOrCopy(from, to)) idents.push(null);
        else {
          const fd = openSync(to, "r");
          try {
            idents.push(identOfFd(fd));
          } finally {
            closeSync(fd);
          }
        }
      }
    } catch (error) {
      (error as { shownAs?: string }).shownAs = entry[2];
      throw error;
    }
  }
  return idents;
}
