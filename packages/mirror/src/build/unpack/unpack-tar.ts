import { createReadStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import { extract as tarExtract } from "tar-stream";
import { decompressorFor, readChunkSize } from "./decode.js";
import type { Compression } from "./formats.js";
import { type Placement, placeEntry } from "./place-entry.js";

/**
 * Pre-POSIX (v7) headers lack the ustar magic (sniffing accepted them by their checksum); tar-stream
 * reads `allowUnknownFormat`, which its typings leave out.
 */
const PARSER_OPTIONS: NonNullable<Parameters<typeof tarExtract>[0]> & { allowUnknownFormat: boolean } = {
  allowUnknownFormat: true,
};

/** Unpacks a tar archive, decompressing it first when it is compressed. */
export async function unpackTar(
  file: string,
  compression: Compression | undefined,
  placement: Placement,
): Promise<void> {
  const parser = tarExtract(PARSER_OPTIONS);
  const source = createReadStream(file, { highWaterMark: readChunkSize(compression) });
  const tap = placement.budget.tap();
  const feeding = compression
    ? pipeline(source, decompressorFor(compression), tap, parser)
    : pipeline(source, tap, parser);
  // read after the entries; marked handled now, as it may reject while an entry is being written
  feeding.catch(() => undefined);
  try {
    for await (const entry of parser) await placeEntry(entry.header, entry, placement);
    await feeding;
  } catch (error) {
    source.destroy();
    await feeding.catch(() => undefined);
    throw error;
  }
}
