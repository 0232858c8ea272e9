/** One member of a bundle, as it is written into the tar stream. */
export interface TarEntry {
  /** Path inside the archive, relative, `/`-separated; directories end with `/`. */
  name: string;
  type: "file" | "directory" | "symlink";
  /** Permission bits only (no file type bits). */
  mode: number;
  /** Content length; 0 for directories and symlinks. */
  size: number;
  /** Target of a symlink, verbatim. */
  linkname?: string;
  /** Seconds since the epoch. */
  mtime: number;
}

export const BLOCK = 512;

const typeflags: Record<TarEntry["type"] | "pax", number> = {
  file: 0x30,
  symlink: 0x32,
  directory: 0x35,
  pax: 0x78,
};

const MAX_OCTAL_SIZE = 0o77777777777;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

interface UstarFields {
  name: string;
  prefix: string;
  type: TarEntry["type"] | "pax";
  mode: number;
  size: number;
  linkname: string;
  mtime: number;
}

/** Writes `value` as zero-padded octal digits and a NUL, without building a string. */
function writeOctal(block: Buffer, offset: number, width: number, value: number): void {
  let rest = value;
  for (let at = offset + width - 2; at >= offset; at--) {
    block[at] = 0x30 + (rest % 8);
    rest = Math.floor(rest / 8);
  }
  block[offset + width - 1] = 0;
}

/** The fields every header shares: zero uid and gid, ustar magic, empty uname and gname, no device. */
const TEMPLATE = (() => {
  const block = Buffer.alloc(BLOCK);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  block.write("ustar\x0000", 257, 8, "latin1");
  writeOctal(block, 329, 8, 0);
  writeOctal(block, 337, 8, 0);
  return block;
})();

function ustarBlock(fields: UstarFields): Buffer {
  const block = Buffer.allocUnsafe(BLOCK);
  TEMPLATE.copy(block);
  block.write(fields.name, 0, 100, "latin1");
  writeOctal(block, 100, 8, fields.mode);
  writeOctal(block, 124, 12, fields.size);
  writeOctal(block, 136, 12, fields.mtime);
  block[156] = typeflags[fields.type];
  if (fields.linkname) block.write(fields.linkname, 157, 100, "latin1");
  if (fields.prefix) block.write(fields.prefix, 345, 155, "latin1");
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (let at = 0; at < BLOCK; at++) sum += block[at] as number;
  writeOctal(block, 148, 7, sum);
  block[155] = 0x20;
  return block;
}

/** Splits a path into ustar's prefix and name fields, or returns undefined when it cannot fit. */
export function splitUstarPath(path: string): { prefix: string; name: string } | undefined {
  if (!PRINTABLE_ASCII.test(path)) return undefined;
  if (path.length <= 100) return { prefix: "", name: path };
  for (let slash = path.indexOf("/"); slash >= 0 && slash <= 155; slash = path.indexOf("/", slash + 1)) {
    const name = path.slice(slash + 1);
    if (name.length <= 100 && name !== "" && name !== "/") return { prefix: path.slice(0, slash), name };
  }
  return undefined;
}

/** One PAX extended header record: `<length> <key>=<value>\n`, the length counting itself. */
export function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  const bodyLength = Buffer.byteLength(body);
  let length = bodyLength + 1;
  while (String(length).length + bodyLength !== length) length = String(length).length + bodyLength;
  return `${length}${body}`;
}

/** A printable-ASCII stand-in for readers without PAX support; PAX readers use the exact record. */
function fallbackPath(path: string): string {
  return path
    .replace(/[^\x20-\x7e]/g, "_")
    .slice(-100)
    .replace(/^\/+/, "");
}

export function paddingFor(size: number): number {
  return (BLOCK - (size % BLOCK)) % BLOCK;
}

/**
 * The header blocks of one entry: a ustar header, preceded by a PAX extended header when the
 * path or link target is not printable ASCII or does not fit, or the size needs more than 11 octal digits.
 */
export function encodeHeader(entry: TarEntry): Buffer {
  const linkname = entry.linkname ?? "";
  const split = splitUstarPath(entry.name);
  const linkFits = PRINTABLE_ASCII.test(linkname) && linkname.length <= 100;
  const sizeFits = entry.size <= MAX_OCTAL_SIZE;
  const ustar = ustarBlock({
    name: split ? split.name : fallbackPath(entry.name),
    prefix: split ? split.prefix : "",
    type: entry.type,
    mode: entry.mode,
    size: sizeFits ? entry.size : 0,
    linkname: linkFits ? linkname : fallbackPath(linkname),
    mtime: entry.mtime,
  });
  if (split && linkFits && sizeFits) return ustar;

  let records = "";
  if (!split) records += paxRecord("path", entry.name);
  if (!linkFits) records += paxRecord("linkpath", linkname);
  if (!sizeFits) records += paxRecord("size", String(entry.size));
  const data = Buffer.from(records, "utf8");
  const paxHeader = ustarBlock({
    name: "PaxHeader",
    prefix: "",
    type: "pax",
    mode: 0o644,
    size: data.length,
    linkname: "",
    mtime: entry.mtime,
  });
  return Buffer.concat([paxHeader, data, Buffer.alloc(paddingFor(data.length)), ustar]);
}

/** The two zero blocks that end an archive. */
export const END_OF_ARCHIVE = Buffer.alloc(2 * BLOCK);
