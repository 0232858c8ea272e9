import { open } from "node:fs/promises";

/** What a bundle file holds, by its leading bytes. Kept free of the native codecs so the push path can use it cheaply. */
export type ArchiveKind = "zstd" | "xz" | "tar";

const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);
const XZ_MAGIC = Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]);
const USTAR_MAGIC = Buffer.from("ustar", "ascii");

/** Bytes needed by `detectArchive`: up to and including the ustar magic of a first header. */
export const DETECT_BYTES = 262;

/** What a file holds, judged by its leading bytes; undefined when it is none of the three. */
export function detectArchive(head: Buffer): ArchiveKind | undefined {
  if (head.subarray(0, ZSTD_MAGIC.length).equals(ZSTD_MAGIC)) return "zstd";
  if (head.subarray(0, XZ_MAGIC.length).equals(XZ_MAGIC)) return "xz";
  if (head.subarray(257, 262).equals(USTAR_MAGIC)) return "tar";
  return undefined;
}

/** Reads a file's leading bytes and tells what it holds. */
export async function detectArchiveFile(path: string): Promise<ArchiveKind | undefined> {
  const handle = await open(path, "r");
  try {
    const head = Buffer.alloc(DETECT_BYTES);
    const { bytesRead } = await handle.read(head, 0, DETECT_BYTES, 0);
    return detectArchive(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}
