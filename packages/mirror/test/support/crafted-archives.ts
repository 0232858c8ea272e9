import { createWriteStream } from "node:fs";
import { writeFile } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { crc32 } from "node:zlib";
import { pack } from "tar-stream";

/** One entry of a crafted tar: `body` for files, `linkname` for links, `type` defaulting to file. */
export interface TarEntrySpec {
  name: string;
  type?: "file" | "directory" | "symlink" | "link" | "character-device" | "fifo";
  linkname?: string;
  body?: string;
  mode?: number;
}

/** Writes a plain tar holding exactly `entries`, however hostile: tests craft the archives tools refuse to make. */
export async function writeTar(file: string, entries: TarEntrySpec[]): Promise<void> {
  const packer = pack();
  const writing = pipeline(packer, createWriteStream(file));
  for (const entry of entries) {
    const type = entry.type ?? "file";
    const mode = entry.mode ?? (type === "directory" ? 0o755 : 0o644);
    packer.entry(
      { name: entry.name, type, linkname: entry.linkname, mode },
      type === "file" ? (entry.body ?? "") : "",
    );
  }
  packer.finalize();
  await writing;
}

/** One entry of a crafted zip, stored uncompressed; `unixMode` (type and permissions) goes in the external attributes. */
export interface ZipEntrySpec {
  name: string;
  body?: string;
  unixMode?: number;
}

const u16 = (value: number) => {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16LE(value);
  return buffer;
};
const u32 = (value: number) => {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value >>> 0);
  return buffer;
};

/** Writes a zip by hand, byte by byte, so that names and attributes are exactly what a test wants. */
export async function writeZip(file: string, entries: ZipEntrySpec[]): Promise<void> {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const data = Buffer.from(entry.body ?? "", "utf8");
    const common = [
      u16(20),
      u16(0x800),
      u16(0),
      u16(0),
      u16(0x21),
      u32(crc32(data)),
      u32(data.length),
      u32(data.length),
      u16(name.length),
      u16(0),
    ];
    const local = Buffer.concat([u32(0x04034b50), ...common, name, data]);
    const madeBy = entry.unixMode === undefined ? 20 : (3 << 8) | 20;
    const attributes = entry.unixMode === undefined ? 0 : entry.unixMode * 0x10000;
    centrals.push(
      Buffer.concat([
        u32(0x02014b50),
        u16(madeBy),
        ...common,
        u16(0),
        u16(0),
        u16(0),
        u32(attributes),
        u32(offset),
        name,
      ]),
    );
    locals.push(local);
    offset += local.length;
  }
  const central = Buffer.concat(centrals);
  const end = Buffer.concat([
    u32(0x06054b50),
    u16(0),
    u16(0),
    u16(entries.length),
    u16(entries.length),
    u32(central.length),
    u32(offset),
    u16(0),
  ]);
  await writeFile(file, Buffer.concat([...locals, central, end]));
}
