import { mkdir } from "node:fs/promises";
import { CATALOG_INDEX_MAX_BYTES, createFsReader } from "@pkg/index/read";
import { writeIndexFiles } from "@pkg/index/write";
import type { AnnounceDestination, IndexFileReader, PublishResult, Regenerate } from "./destination.js";

/**
 * A local index directory (`--out DIR`): read and written in place, no credential. It keeps
 * `/config.json` and `/c/index.json` itself. Files are written atomically, objects before the root
 * and the root before `/c/index.json`, so a reader of the directory never meets a root naming a
 * missing object nor a catalog naming a root not written yet.
 */
export class LocalDirectoryDestination implements AnnounceDestination {
  readonly writesCatalogIndex = true;

  constructor(readonly name: string) {}

  async publish(regenerate: Regenerate, _message: string, signal?: AbortSignal): Promise<PublishResult> {
    await mkdir(this.name, { recursive: true });
    const reader = await createFsReader(this.name);
    const read: IndexFileReader = (path) => reader.read(path, { maxBytes: CATALOG_INDEX_MAX_BYTES });
    const change = await regenerate(read);
    signal?.throwIfAborted();
    const writtenPaths = change.files.size === 0 ? [] : await writeIndexFiles(this.name, change.files);
    return {
      status: writtenPaths.length === 0 ? "unchanged" : "updated",
      requestUrl: null,
      requestNumber: null,
      writtenPaths,
    };
  }
}
