import { createReadStream, createWriteStream } from "node:fs";
import { chmod, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { decompressorFor, readChunkSize } from "./decode.js";
import type { Compression } from "./formats.js";
import type { UnpackBudget } from "./limits.js";

/** The executable is the whole download. */
const EXECUTABLE = 0o755;

/** Writes the asset (decompressed when `compression` is set) as the executable `fileName` in a new directory `root`. */
export async function placeBinary(
  file: string,
  compression: Compression | undefined,
  root: string,
  fileName: string,
  budget: UnpackBudget,
): Promise<void> {
  await mkdir(root);
  const target = join(root, fileName);
  const source = createReadStream(file, { highWaterMark: readChunkSize(compression) });
  const sink = createWriteStream(target, { flags: "wx", mode: EXECUTABLE });
  if (compression) await pipeline(source, decompressorFor(compression), budget.tap(), sink);
  else await pipeline(source, budget.tap(), sink);
  // the umask may have narrowed the mode given at creation
  await chmod(target, EXECUTABLE);
  budget.takeEntry();
}
