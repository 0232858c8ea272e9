import { join } from "node:path";
import { writeTar, writeZip } from "./crafted-archives.js";

/** One hostile asset: how to write it, and what the refusal must say. */
export interface HostileAsset {
  label: string;
  ext: "tar" | "zip";
  write: (file: string) => Promise<void>;
  message: RegExp;
}

const S_IFLNK = 0o120000;

/**
 * Archives that try to reach `sentinel`, a directory beside the work directory, from a tree
 * `depth` directories below the sentinel's parent: by `..`, by absolute paths, through symlinks
 * and hard links, and with device files.
 */
export function hostileCorpus(sentinel: string, depth: number): HostileAsset[] {
  const up = `${"../".repeat(depth)}${sentinel.split("/").at(-1)}`;
  const tar = (label: string, entries: Parameters<typeof writeTar>[1], message: RegExp): HostileAsset => ({
    label,
    ext: "tar",
    write: (file) => writeTar(file, entries),
    message,
  });
  const zip = (label: string, entries: Parameters<typeof writeZip>[1], message: RegExp): HostileAsset => ({
    label,
    ext: "zip",
    write: (file) => writeZip(file, entries),
    message,
  });
  return [
    tar("tar ..", [{ name: `${up}/evil`, body: "x" }], /climbs out with \.\./),
    tar("tar absolute path", [{ name: join(sentinel, "evil"), body: "x" }], /has an absolute path/),
    tar(
      "tar symlink out, then a write through it",
      [
        { name: "up", type: "symlink", linkname: up },
        { name: "up/evil", body: "x" },
      ],
      /"up" is a symlink that points outside the destination/,
    ),
    tar(
      "tar absolute symlink",
      [{ name: "abs", type: "symlink", linkname: sentinel }],
      /points to an absolute path/,
    ),
    tar(
      "tar hard link out",
      [{ name: "hl", type: "link", linkname: `${up}/secret` }],
      /hard link hl -> (\.\.\/)+[^/]+\/secret points outside the archive/,
    ),
    tar(
      "tar absolute hard link",
      [{ name: "hl", type: "link", linkname: join(sentinel, "secret") }],
      /hard link hl -> \/\S+\/secret points outside the archive/,
    ),
    tar("tar character device", [{ name: "null", type: "character-device" }], /is a character-device/),
    zip("zip slip", [{ name: `${up}/evil`, body: "x" }], /climbs out with \.\./),
    zip(
      "zip symlink out, then a write through it",
      [
        { name: "up", body: up, unixMode: S_IFLNK | 0o777 },
        { name: "up/evil", body: "x" },
      ],
      /"up" is a symlink that points outside the destination/,
    ),
  ];
}
