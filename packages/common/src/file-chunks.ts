import { open } from "node:fs/promises";

/**
 * Reads a file front to back, handing each chunk of up to `chunkBytes` to `visit` (hashing,
 * counting) while the next one is read: two buffers, reused throughout, so a large file costs
 * no allocation per chunk. A chunk is valid only during its `visit` call.
 */
export async function forEachFileChunk(
  path: string,
  visit: (chunk: Buffer) => void,
  chunkBytes = 1 << 20,
): Promise<void> {
  const handle = await open(path, "r");
  const buffers = [Buffer.allocUnsafe(chunkBytes), Buffer.allocUnsafe(chunkBytes)] as const;
  let pending: Promise<{ bytesRead: number }> | undefined;
  try {
    let position = 0;
    let turn: 0 | 1 = 0;
    pending = handle.read(buffers[turn], 0, chunkBytes, position);
    for (;;) {
      const { bytesRead } = await pending;
      pending = undefined;
      if (bytesRead === 0) return;
      const chunk = buffers[turn].subarray(0, bytesRead);
      position += bytesRead;
      turn = turn === 0 ? 1 : 0;
      pending = handle.read(buffers[turn], 0, chunkBytes, position);
      visit(chunk);
    }
  } finally {
    // a read still under way when `visit` threw finishes before its file closes
    await pending?.catch(() => undefined);
    await handle.close();
  }
}
