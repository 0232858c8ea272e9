import { renameSync } from "node:fs";
import { join, sep } from "node:path";
import type { WalkHooks } from "../sources/read-path.js";
import { type FileIdent, sha256Hex } from "./memo.js";
import { isSafeRelativePath, type SiteWriter } from "./site-writer.js";

/** An index file streamed out while its source is read: index-relative path, key, identity. */
type StreamedFile = [path: string, key: string, ident: FileIdent];

const contentAddressed = /\/o\/sha256\/([0-9a-f]{64})\.[a-z]+$/;

/** The key of an index file: a content-addressed object is its name, anything else its bytes. */
export function indexFileKey(path: string, bytes: Uint8Array): string {
  const hex = contentAddressed.exec(path)?.[1];
  return hex === undefined ? sha256Hex(bytes) : `sha256:${hex}`;
}

/**
 * Mirrors every verified index file into the site (under `index/<label>/`, and at the site root for
 * the root index) as the sources are read, so their bytes are never all held at once. A source's
 * label is settled only once all of it is read, so its files first land in a directory of their own
 * (`<work>/src-<n>/`): `place` then moves them to their site paths (one rename of the directory when
 * writing a new site, each new file at commit when updating a previous one).
 */
export class IndexMirror {
  private readonly streamed = new Map<number, StreamedFile[]>();
  private readonly skipped = new Map<number, string[]>();
  private readonly placed = new Set<number>();

  constructor(
    private readonly writer: SiteWriter,
    /** Where the files of each source are streamed to (inside the site root for a new site). */
    private readonly work: string,
    private readonly incremental: boolean,
  ) {}

  private sourceDir(sourceIndex: number): string {
    return `${this.work}${sep}src-${sourceIndex}`;
  }

  /** The `onFiles` hook of a source's walk. */
  onFiles(sourceIndex: number): NonNullable<WalkHooks["onFiles"]> {
    const files: StreamedFile[] = [];
    const skipped: string[] = [];
    this.streamed.set(sourceIndex, files);
    this.skipped.set(sourceIndex, skipped);
    const dir = this.sourceDir(sourceIndex);
    return (read) => {
      for (const [path, bytes] of read) {
        if (!isSafeRelativePath(path)) {
          skipped.push(path);
          continue;
        }
        const file = join(dir, path);
        this.writer.ensureDir(file.slice(0, file.lastIndexOf(sep)));
        files.push([path, indexFileKey(path, bytes), this.writer.createFile(file, bytes, path)]);
      }
    };
  }

  /** The files read from a source this build: index-relative path and key. */
  streamedFiles(sourceIndex: number): [string, string][] {
    return (this.streamed.get(sourceIndex) ?? []).map(([path, key]) => [path, key]);
  }

  /** Paths (index-relative) of the files read from a source this build. */
  readPaths(sourceIndex: number): Set<string> {
    return new Set((this.streamed.get(sourceIndex) ?? []).map(([path]) => path));
  }

  /** Where a file of a source can be read during this build (a README for its page). */
  locate(sourceIndex: number, label: string, path: string, readThisBuild: boolean): string {
    if (readThisBuild && (this.incremental || !this.placed.has(sourceIndex)))
      return join(this.sourceDir(sourceIndex), path);
    return join(this.writer.root, "index", label, path);
  }

  /**
   * Gives the streamed files of a source their site paths, now that its label is settled; files of
   * packages reused from the previous output (`kept`, index-relative path and key) keep theirs.
   */
  place(
    sourceIndex: number,
    label: string,
    root: boolean,
    kept: Iterable<[string, string]>,
    warn: (line: string) => void,
  ): void {
    const owner = `the index ${label}`;
    for (const path of this.skipped.get(sourceIndex) ?? [])
      warn(`${label}: skipped index file ${JSON.stringify(path)}: not a plain relative path`);
    const files = this.streamed.get(sourceIndex) ?? [];
    const base = `index/${label}`;
    if (!this.incremental && files.length > 0) {
      this.writer.ensureDir(join(this.writer.root, "index"));
      renameSync(this.sourceDir(sourceIndex), join(this.writer.root, base));
    }
    this.placed.add(sourceIndex);
    for (const [path, key, ident] of files) {
      const staged = this.incremental ? join(this.sourceDir(sourceIndex), path) : undefined;
      this.writer.adopt(`${base}/${path}`, owner, key, ident, staged);
    }
    for (const [path, key] of kept) this.writer.keepPrevious(`${base}/${path}`, owner, key);
    if (!root) return;
    for (const [path] of files) this.writer.linkSync(path, `${base}/${path}`, owner);
    for (const [path] of kept) this.writer.linkSync(path, `${base}/${path}`, owner);
  }
}
