import {
  createFsReader,
  DEFAULT_FILE_CONCURRENCY,
  type WalkedIndex,
  type WalkOptions,
  walkIndex,
} from "@pkg/index/read";
import type { PathSourceEntry } from "../config/types.js";

/** What a build passes into the walk of one source: packages it still holds, and where files go. */
export type WalkHooks = Pick<WalkOptions, "reuse" | "onFiles" | "onPackage">;

export interface PathReadOptions {
  concurrency?: number;
  walk?: WalkHooks;
}

export interface IndexDirectory {
  dir: string;
  /** Prefix of warning lines: `sources[0]`. */
  source: string;
  /** How the directory is named in messages (default `dir`). */
  shownAs?: string;
}

/** Reads a local index tree (a `path` source, or a `git` source's checkout). */
export async function readIndexDirectory(
  { dir, source, shownAs }: IndexDirectory,
  options: PathReadOptions = {},
): Promise<WalkedIndex> {
  const reader = await createFsReader(dir, shownAs);
  return walkIndex(reader, {
    ...options.walk,
    source,
    concurrency: options.concurrency ?? DEFAULT_FILE_CONCURRENCY,
  });
}

export function readPathSource(entry: PathSourceEntry, options: PathReadOptions = {}): Promise<WalkedIndex> {
  return readIndexDirectory({ dir: entry.path, source: `sources[${entry.index}]` }, options);
}
