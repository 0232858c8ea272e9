/** A compression layer, told by its magic bytes. */
export type Compression = "gzip" | "xz" | "zstd" | "bzip2";

/** What a downloaded asset turned out to be once its leading bytes (and, if compressed, those inside) were read. */
export type AssetFormat =
  | { kind: "tar"; compression: Compression | undefined }
  | { kind: "zip" }
  | { kind: "compressed-file"; compression: Compression }
  | { kind: "plain-file" };

/** What the first bytes of a file say before anything is decompressed. */
export type OuterFormat =
  | { kind: "zip" }
  | { kind: "compressed"; compression: Compression }
  | { kind: "raw" };

export const TAR_BLOCK = 512;

const MAGICS: ReadonlyArray<[Compression, Buffer]> = [
  ["gzip", Buffer.from([0x1f, 0x8b])],
  ["xz", Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])],
  ["zstd", Buffer.from([0x28, 0xb5, 0x2f, 0xfd])],
];
/** A local file header, or the end record of an empty archive. */
const ZIP_MAGICS = [Buffer.from("PK\x03\x04", "latin1"), Buffer.from("PK\x05\x06", "latin1")];

function startsWith(head: Buffer, magic: Buffer): boolean {
  return head.length >= magic.length && head.subarray(0, magic.length).equals(magic);
}

export function detectOuter(head: Buffer): OuterFormat {
  if (ZIP_MAGICS.some((magic) => startsWith(head, magic))) return { kind: "zip" };
  for (const [compression, magic] of MAGICS)
    if (startsWith(head, magic)) return { kind: "compressed", compression };
  // "BZh" and a block-size digit 1-9
  const level = head[3] ?? 0;
  if (head.toString("latin1", 0, 3) === "BZh" && level >= 0x31 && level <= 0x39) {
    return { kind: "compressed", compression: "bzip2" };
  }
  return { kind: "raw" };
}

/**
 * Whether a block is a tar header: the ustar magic (POSIX and GNU), or for pre-POSIX (v7) archives
 * a name and a checksum field that matches the block's bytes.
 */
export function isTarHeader(block: Buffer): boolean {
  if (block.length < TAR_BLOCK) return false;
  if (block.toString("latin1", 257, 262) === "ustar") return true;
  if (block[0] === 0) return false;
  const field = block
    .toString("latin1", 148, 156)
    .replace(/[\0 ]+$/, "")
    .trim();
  if (!/^[0-7]{1,7}$/.test(field)) return false;
  let sum = 0;
  for (let i = 0; i < TAR_BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (block[i] ?? 0);
  return sum === Number.parseInt(field, 8);
}

/**
 * The format of an asset from its outer format and `content`: its first bytes when raw, the first
 * decompressed bytes when compressed (a zip needs none).
 */
export function classify(outer: OuterFormat, content: Buffer): AssetFormat {
  if (outer.kind === "zip") return { kind: "zip" };
  if (outer.kind === "raw")
    return isTarHeader(content) ? { kind: "tar", compression: undefined } : { kind: "plain-file" };
  return isTarHeader(content)
    ? { kind: "tar", compression: outer.compression }
    : { kind: "compressed-file", compression: outer.compression };
}

const article = (compression: Compression) => (compression === "xz" ? "an" : "a");

/** How a format is named in messages. */
export function describeFormat(format: AssetFormat): string {
  switch (format.kind) {
    case "tar":
      return format.compression
        ? `${article(format.compression)} ${format.compression}-compressed tar archive`
        : "a tar archive";
    case "zip":
      return "a zip archive";
    case "compressed-file":
      return `a single ${format.compression}-compressed file`;
    case "plain-file":
      return "a plain file";
  }
}
