import { dataError } from "@pkg/common";

export type ExtractedKind = "directory" | "file" | "symlink";

/**
 * The `/`-separated segments of an archive path, `.` segments dropped. Absolute paths, `..`
 * segments and NUL bytes would let an archive write outside the destination: they are data errors.
 */
export function archivePathSegments(name: string): string[] {
  if (name.startsWith("/")) throw dataError(`archive entry ${JSON.stringify(name)} has an absolute path`);
  if (name.includes("\0"))
    throw dataError(`archive entry ${JSON.stringify(name)} has a NUL byte in its path`);
  const segments = name.split("/").filter((segment) => segment !== "" && segment !== ".");
  if (segments.includes("..")) throw dataError(`archive entry ${JSON.stringify(name)} climbs out with ..`);
  return segments;
}

/**
 * What has been extracted so far, by relative path. Only this extraction writes into its fresh
 * temporary directory, so this record is the truth about it and no path needs to be looked up on disk.
 */
export class ExtractionRecord {
  #kinds = new Map<string, ExtractedKind>();

  kindOf(path: string): ExtractedKind | undefined {
    return this.#kinds.get(path);
  }

  /**
   * Checks that every parent of `segments` is a directory (or not there yet, to be created as one):
   * a parent that is a symlink would send the write outside the destination.
   */
  checkParents(name: string, segments: string[]): void {
    for (let depth = 1; depth < segments.length; depth++) {
      const parent = segments.slice(0, depth).join("/");
      const kind = this.#kinds.get(parent);
      if (kind === "symlink")
        throw dataError(`archive entry ${JSON.stringify(name)} passes through the symlink ${parent}`);
      if (kind === "file")
        throw dataError(`archive entry ${JSON.stringify(name)} passes through the file ${parent}`);
    }
  }

  /** Records an entry and the directories created for its parents. */
  add(segments: string[], kind: ExtractedKind): void {
    for (let depth = 1; depth < segments.length; depth++) {
      const parent = segments.slice(0, depth).join("/");
      if (!this.#kinds.has(parent)) this.#kinds.set(parent, "directory");
    }
    this.#kinds.set(segments.join("/"), kind);
  }
}
