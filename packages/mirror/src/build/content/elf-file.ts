import { open } from "node:fs/promises";
import { type ElfInterpreter, elfInterpreter } from "@pkg/package";

/** The loader the file at `path` asks for (symlinks followed); reads only its headers. */
export async function readElfInterpreter(path: string): Promise<ElfInterpreter> {
  const handle = await open(path, "r");
  try {
    const { size } = await handle.stat();
    return await elfInterpreter({
      size,
      async read(offset, length) {
        const buffer = new Uint8Array(Math.max(0, Math.min(length, size - offset)));
        let filled = 0;
        while (filled < buffer.length) {
          const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, offset + filled);
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        return buffer.subarray(0, filled);
      },
    });
  } finally {
    await handle.close();
  }
}
