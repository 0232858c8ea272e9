import { mkdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { ExitCode, PkgError } from "@pkg/common";
import { CATALOG_INDEX_MAX_BYTES, createFsReader } from "@pkg/index/read";
import { writeIndexFiles } from "@pkg/index/write";
import { withFileLock } from "@pkg/oci";
import type { AnnounceDestination, IndexFileReader, PublishResult, Regenerate } from "./destination.js";

/** Held while a change is checked against the directory and written; removed after. */
const LOCK_FILE = ".announce.lock";
/** Changes computed before giving up on a directory other writers keep changing. */
const MAX_ATTEMPTS = 5;

function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

/**
 * A local index directory (`--out DIR`, created when missing): read and written in place, no
 * credential. It keeps `/config.json` and `/c/index.json` itself. Each file is written atomically,
 * objects before the root and the root before `/c/index.json`, so a reader of the directory never
 * meets a root naming a missing object nor a catalog naming a root not written yet. Another
 * announce into the same directory at the same time is a race the loser notices: the files a
 * change was computed from are compared, under a lock, with what the directory holds before
 * anything is written, and the change is computed again when they moved.
 */
export class LocalDirectoryDestination implements AnnounceDestination {
  readonly writesCatalogIndex = true;

  constructor(readonly name: string) {}

  async publish(regenerate: Regenerate, _message: string, signal?: AbortSignal): Promise<PublishResult> {
    await mkdir(this.name, { recursive: true });
    const reader = await createFsReader(this.name);
    const read: IndexFileReader = (path) => reader.read(path, { maxBytes: CATALOG_INDEX_MAX_BYTES });
    const result = (writtenPaths: string[]): PublishResult => ({
      status: writtenPaths.length === 0 ? "unchanged" : "updated",
      requestUrl: null,
      requestNumber: null,
      writtenPaths,
    });
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const seen = new Map<string, Uint8Array | undefined>();
      const change = await regenerate(async (path) => {
        const bytes = await read(path);
        seen.set(path, bytes);
        return bytes;
      });
      signal?.throwIfAborted();
      if (change.files.size === 0) return result([]);
      const written = await withFileLock(join(this.name, LOCK_FILE), async () => {
        for (const [path, bytes] of seen) if (!sameBytes(await read(path), bytes)) return undefined;
        return writeIndexFiles(this.name, change.files);
      });
      if (written !== undefined) return result(written);
    }
    throw new PkgError(
      ExitCode.Transient,
      `${this.name}: other writers kept changing the index during ${MAX_ATTEMPTS} attempts; try again`,
    );
  }

  async preview(regenerate: Regenerate, signal?: AbortSignal): Promise<"updated" | "unchanged"> {
    const exists = await stat(this.name).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return false;
        throw error;
      },
    );
    // a directory not made yet reads as an empty index
    const reader = exists ? await createFsReader(this.name) : undefined;
    const change = await regenerate(async (path) =>
      reader?.read(path, { maxBytes: CATALOG_INDEX_MAX_BYTES }),
    );
    signal?.throwIfAborted();
    return change.files.size === 0 ? "unchanged" : "updated";
  }
}
