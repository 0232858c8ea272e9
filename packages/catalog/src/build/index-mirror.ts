import { join, sep } from "node:path";
import type { WalkHooks } from "../sources/read-path.js";
import { type FileIdent, type MemoPackage, sha256Hex } from "./memo.js";
import { isSafeRelativePath, type SiteWriter } from "./site-writer.js";

/** The site paths and keys of a reused package's index files (and of their root copies), made
 *  once per memo entry: a process keeping its memos (dev) does not make them again. */
const outputs = new WeakMap<MemoPackage, { base: string; root: boolean; paths: [string, string][] }>();

export function keptOutputs(memo: MemoPackage, root: boolean): [string, string][] {
  return outputsOf(memo, `index/${memo.label}`, root);
}

function outputsOf(memo: MemoPackage, base: string, root: boolean): [string, string][] {
  const made = outputs.get(memo);
  if (made?.base === base && made.root === root) return made.paths;
  const paths: [string, string][] = [];
  for (const [path, key] of memo.files) {
    paths.push([`${base}/${path}`, key]);
    if (root) paths.push([path, key]);
  }
  outputs.set(memo, { base, root, paths });
  return paths;
}

/** An index file streamed out while its source is read: index-relative path, key, identity. */
type StreamedFile = [path: string, key: string, ident: FileIdent];

const contentAddressed = /\/o\/sha256\/([0-9a-f]{64})\.[a-z]+$/;

/** The key of an index file: a content-addressed object is its name, anything else its bytes. */
export function indexFileKey(path: string, bytes: Uint8Array): string {
  const hex = contentAddressed.exec(path)?.[1];
  return hex === undefined ? sha256Hex(bytes) : `sha256:${hex}`;
}

interface SourceStream {
  files: StreamedFile[];
  paths: Set<string>;
  skipped: string[];
  /** Where this source's files go: `index/<label>/` of a new site, else its own stage directory. */
  dir: string | undefined;
  /** Files that came before the label was known (config.json and c/index.json). */
  waiting: [string, Uint8Array][];
  label: string | undefined;
}

/**
 * Mirrors every verified index file into the site (under `index/<label>/`, and at the site root for
 * the root index) as the sources are read, so their bytes are never all held at once.
 *
 * A successful build has one label per source, the first segment of every package name (or the
 * explicit label they must all match), so the first package read settles where a new site's files
 * go; what came before it waits. Onto a previous output, files go to a stage directory of the
 * source, and `place` moves each new one into the site at commit.
 */
export class IndexMirror {
  private readonly sources = new Map<number, SourceStream>();

  constructor(
    private readonly writer: SiteWriter,
    /** The stage directory of an incremental build; undefined when writing a new site. */
    private readonly stage: string | undefined,
  ) {}

  private stream(sourceIndex: number): SourceStream {
    let stream = this.sources.get(sourceIndex);
    if (stream === undefined) {
      stream = { files: [], paths: new Set(), skipped: [], dir: undefined, waiting: [], label: undefined };
      this.sources.set(sourceIndex, stream);
    }
    return stream;
  }

  /** The `onFiles` hook of a source's walk; `explicitLabel` is the config's label, if any. */
  onFiles(sourceIndex: number, explicitLabel: string | undefined): NonNullable<WalkHooks["onFiles"]> {
    const stream = this.stream(sourceIndex);
    return (read, label) => {
      if (stream.dir === undefined) {
        const settled = explicitLabel ?? label;
        if (settled === undefined) {
          stream.waiting.push(...read);
          return;
        }
        this.settle(stream, sourceIndex, settled);
      }
      this.write(stream, read);
    };
  }

  private settle(stream: SourceStream, sourceIndex: number, label: string): void {
    stream.label = label;
    stream.dir =
      this.stage === undefined
        ? join(this.writer.root, "index", label)
        : join(this.stage, `src-${sourceIndex}`);
    const waiting = stream.waiting;
    stream.waiting = [];
    this.write(stream, waiting);
  }

  private write(stream: SourceStream, read: [string, Uint8Array][]): void {
    const dir = stream.dir as string;
    for (const [path, bytes] of read) {
      if (!isSafeRelativePath(path)) {
        stream.skipped.push(path);
        continue;
      }
      const file = join(dir, path);
      this.writer.ensureDir(file.slice(0, file.lastIndexOf(sep)));
      stream.files.push([path, indexFileKey(path, bytes), this.writer.createFile(file, bytes, path)]);
      stream.paths.add(path);
    }
  }

  /** The files read from a source this build (so far): index-relative path and key. */
  streamedFiles(sourceIndex: number): [string, string][] {
    return (this.sources.get(sourceIndex)?.files ?? []).map(([path, key]) => [path, key]);
  }

  /** Paths (index-relative) of the files read from a source this build (so far). */
  readPaths(sourceIndex: number): ReadonlySet<string> {
    return this.sources.get(sourceIndex)?.paths ?? new Set();
  }

  /** Where a file of a source can be read during this build (a README for its page). */
  locate(sourceIndex: number, label: string, path: string, readThisBuild: boolean): string {
    const dir = this.sources.get(sourceIndex)?.dir;
    if (readThisBuild && dir !== undefined) return join(dir, path);
    return join(this.writer.root, "index", label, path);
  }

  /**
   * Gives the files of a source their site paths, now that its label is settled; files of packages
   * reused from the previous output (`kept`, index-relative path and key) keep theirs.
   */
  place(
    sourceIndex: number,
    label: string,
    root: boolean,
    kept: Iterable<MemoPackage>,
    warn: (line: string) => void,
  ): number {
    const stream = this.stream(sourceIndex);
    if (stream.dir === undefined) this.settle(stream, sourceIndex, label);
    if (stream.label !== label)
      throw new Error(`internal: the files of ${label} were streamed as ${stream.label}`);
    const owner = `the index ${label}`;
    for (const path of stream.skipped)
      warn(`${label}: skipped index file ${JSON.stringify(path)}: not a plain relative path`);
    const base = `index/${label}`;
    for (const [path, key, ident] of stream.files) {
      const staged = this.stage === undefined ? undefined : join(stream.dir as string, path);
      this.writer.adopt(`${base}/${path}`, owner, key, ident, staged);
    }
    if (root) for (const [path] of stream.files) this.writer.linkSync(path, `${base}/${path}`, owner);
    // the files of reused packages stay as the build that read them left them: a site path under
    // index/<label>/ (or, for the root index, p/ at the top) that only the mirror writes
    let keptCount = 0;
    for (const memo of kept) {
      for (const [path, key] of outputsOf(memo, base, root)) this.writer.keepPrevious(path, key);
      keptCount += memo.files.length;
    }
    return stream.files.length + keptCount;
  }
}
