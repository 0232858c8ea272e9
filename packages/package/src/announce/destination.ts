/**
 * The contract between announce (which computes what an index should hold) and its destinations
 * (a local index directory, or a forge index repository reached through a transport).
 */

/** Reads a file of the index as the destination holds it now (`/`-separated path relative to the index root); undefined when absent. */
export type IndexFileReader = (path: string) => Promise<Uint8Array | undefined>;

/** What one announce writes: whole files by path (never deletes), and what changed. */
export interface IndexChange {
  /** Files to write; empty when nothing changes. Includes the package root, new objects, and for a local directory /config.json and /c/index.json. */
  files: Map<string, Uint8Array>;
  status: "updated" | "unchanged";
  /** Tags added or re-observed by this announce. */
  tags: string[];
  /** Reserved tags the registry listed and the announce left out. */
  reservedTagsDropped: string[];
}

/** Computes the change from the destination's current files; a transport calls it again after losing a race, with the new state. */
export type Regenerate = (read: IndexFileReader) => Promise<IndexChange>;

export interface PublishResult {
  status: "updated" | "unchanged";
  requestUrl: string | null;
  requestNumber: number | null;
  writtenPaths: string[];
}

export interface AnnounceDestination {
  /** Human name for messages: the directory, or `forge host/ns/project`. */
  readonly name: string;
  /** Whether the destination keeps /c/index.json itself (a local directory does; an index repository renders it at deploy, so a change there carries only the package's files). */
  readonly writesCatalogIndex: boolean;
  publish(regenerate: Regenerate, message: string, signal?: AbortSignal): Promise<PublishResult>;
  /** A dry run: computes the change against the index as committed (a forge's default branch, the
   *  directory as it is) and says whether it changes anything; creates, writes and opens nothing. */
  preview(regenerate: Regenerate, signal?: AbortSignal): Promise<"updated" | "unchanged">;
}
