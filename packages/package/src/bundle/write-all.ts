import type { FileHandle } from "node:fs/promises";

/** Writes `chunks` whole with `writev`: a short write goes on from where it stopped. */
export async function writeAll(handle: FileHandle, chunks: readonly Uint8Array[]): Promise<void> {
  let rest = chunks;
  while (rest.length > 0) {
    let { bytesWritten } = await handle.writev(rest);
    while (rest.length > 0 && bytesWritten >= (rest[0] as Uint8Array).length) {
      bytesWritten -= (rest[0] as Uint8Array).length;
      rest = rest.slice(1);
    }
    if (bytesWritten > 0) rest = [(rest[0] as Uint8Array).subarray(bytesWritten), ...rest.slice(1)];
  }
}
