import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { decompressorFor } from "./decode.js";
import { type AssetFormat, type Compression, classify, detectOuter, TAR_BLOCK } from "./formats.js";

async function readHead(file: string): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const head = Buffer.alloc(TAR_BLOCK);
    const { bytesRead } = await handle.read(head, 0, TAR_BLOCK, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The first decompressed bytes of a compressed file (fewer when it holds less); decoding stops there. */
async function decompressedHead(file: string, compression: Compression): Promise<Buffer> {
  const source = createReadStream(file);
  const unpack = decompressorFor(compression);
  source.on("error", (error) => unpack.destroy(error));
  source.pipe(unpack);
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of unpack) {
      chunks.push(chunk as Buffer);
      length += (chunk as Buffer).length;
      if (length >= TAR_BLOCK) break;
    }
  } finally {
    source.destroy();
    unpack.destroy();
  }
  return Buffer.concat(chunks).subarray(0, TAR_BLOCK);
}

/** What an asset is, by its leading bytes, and for a compressed one the leading bytes inside. */
export async function sniffAsset(file: string): Promise<AssetFormat> {
  const head = await readHead(file);
  const outer = detectOuter(head);
  if (outer.kind !== "compressed") return classify(outer, head);
  return classify(outer, await decompressedHead(file, outer.compression));
}
