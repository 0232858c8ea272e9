import { dataError } from "@pkg/common";
import type { Header } from "tar-stream";

/** The parts of a zip central-directory entry that decide what it becomes on disk. */
export interface ZipEntryFacts {
  name: string;
  versionMadeBy: number;
  externalFileAttributes: number;
}

const UNIX_HOST = 3;
const TYPE_MASK = 0o170000;
const TYPES = new Map<number, Header["type"] | "socket">([
  [0o010000, "fifo"],
  [0o020000, "character-device"],
  [0o040000, "directory"],
  [0o060000, "block-device"],
  [0o100000, "file"],
  [0o120000, "symlink"],
  [0o140000, "socket"],
]);

/**
 * The tar-style header a zip entry stands for. Unix-made zips carry `st_mode` in the high half of the
 * external attributes (type and permissions, symlinks included); others only mark directories by a
 * trailing slash, and get 0644 / 0755.
 */
export function zipEntryHeader(entry: ZipEntryFacts): Header {
  const unixMode = entry.versionMadeBy >> 8 === UNIX_HOST ? entry.externalFileAttributes >>> 16 : 0;
  const typeBits = unixMode & TYPE_MASK;
  const kind = typeBits === 0 ? "file" : TYPES.get(typeBits);
  if (kind !== "file" && kind !== "directory" && kind !== "symlink") {
    const what = kind ?? `file of type ${typeBits.toString(8)}`;
    throw dataError(
      `zip entry ${JSON.stringify(entry.name)} is a ${what}; only files, directories and symlinks are extracted`,
    );
  }
  const type = entry.name.endsWith("/") && kind === "file" ? "directory" : kind;
  const permissions = unixMode & 0o7777;
  const mode = permissions !== 0 ? permissions : type === "directory" ? 0o755 : 0o644;
  return {
    name: entry.name,
    type,
    mode,
    size: 0,
    mtime: new Date(0),
    linkname: "",
    uid: 0,
    gid: 0,
    uname: "",
    gname: "",
    devmajor: 0,
    devminor: 0,
  };
}
