import { join, sep } from "node:path";
import type { WalkHooks } from "../sources/read-path.js";
import type { IndexWriter } from "./index-writer.js";
import { type FileIdent, type MemoPackage, outputsOf, sha256Hex } from "./memo.js";
import { intactOutputs } from "./memo-file.js";
import { isSafeRelativePath, type SiteWriter } from "./site-writer.js";

/** An index file streamed out while its source is read: index-relative path, key, identity. */
type StreamedFile = [path: string, key: string, ident: FileIdent];

/** Second names sent to the index writer in one message. */
const LINKS_PER_MESSAGE = 2048;

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
  /** Writes still under way in the index writer. */
  private readonly inflight = new Set<Promise<void>>();

  constructor(
    private readonly writer: SiteWriter,
    /** The stage directory of an incremental build; undefined when writing a new site. */
    private readonly stage: string | undefined,
    /** Where a new site's files are written, off this thread (else they are written here). */
    private readonly indexWriter?: IndexWriter,
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
    // resolves once the files are written (a package's README is read from there for its page)
    return (read, label) => {
      let settling: Promise<void> | undefined;
      if (stream.dir === undefined) {
        const settled = explicitLabel ?? label;
        if (settled === undefined) {
          stream.waiting.push(...read);
          return;
        }
        settling = this.settle(stream, sourceIndex, settled);
      }
      const writing = this.write(stream, read);
      if (settling !== undefined && writing !== undefined)
        return Promise.all([settling, writing]).then(() => {});
      return settling ?? writing;
    };
  }

  private settle(stream: SourceStream, sourceIndex: number, label: string): Promise<void> | undefined {
    stream.label = label;
    stream.dir =
      this.stage === undefined
        ? join(this.writer.root, "index", label)
        : join(this.stage, `src-${sourceIndex}`);
    const waiting = stream.waiting;
    stream.waiting = [];
    return this.write(stream, waiting);
  }

  private write(stream: SourceStream, read: [string, Uint8Array][]): Promise<void> | undefined {
    const dir = stream.dir as string;
    const batch: [string, Uint8Array, string][] = [];
    const entries: StreamedFile[] = [];
    for (const [path, bytes] of read) {
      if (!isSafeRelativePath(path)) {
        stream.skipped.push(path);
        continue;
      }
      const file = join(dir, path);
      stream.paths.add(path);
      if (this.indexWriter === undefined) {
        this.writer.ensureDir(file.slice(0, file.lastIndexOf(sep)));
        stream.files.push([path, indexFileKey(path, bytes), this.writer.createFile(file, bytes, path)]);
        continue;
      }
      const entry: StreamedFile = [path, indexFileKey(path, bytes), [0, 0, 0]];
      stream.files.push(entry);
      entries.push(entry);
      batch.push([file, bytes, path]);
    }
    if (this.indexWriter === undefined || batch.length === 0) return undefined;
    const written = this.indexWriter.write(batch).then((idents) => {
      idents.forEach((ident, i) => {
        (entries[i] as StreamedFile)[2] = ident;
      });
    });
    // its failure reaches whoever waits for `written` (the walk, or place)
    const tracked: Promise<void> = written.then(
      () => {
        this.inflight.delete(tracked);
      },
      () => {
        this.inflight.delete(tracked);
      },
    );
    this.inflight.add(tracked);
    return written;
  }

  /** Waits for every file given to the index writer. */
  private async drain(): Promise<void> {
    while (this.inflight.size > 0) await Promise.all(this.inflight);
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
  async place(
    sourceIndex: number,
    label: string,
    root: boolean,
    kept: Iterable<MemoPackage>,
    warn: (line: string) => void,
  ): Promise<number> {
    const stream = this.stream(sourceIndex);
    if (stream.dir === undefined) await this.settle(stream, sourceIndex, label);
    await this.drain();
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
    if (root && this.indexWriter !== undefined) {
      // every second name claimed (checked) here, then linked by the writer, a slice at a time
      for (let at = 0; at < stream.files.length; at += LINKS_PER_MESSAGE) {
        const slice = stream.files.slice(at, at + LINKS_PER_MESSAGE);
        const links = slice.map(([path]): [string, string, string] => {
          const { from, to } = this.writer.claimLink(path, `${base}/${path}`, owner);
          return [from, to, path];
        });
        const idents = await this.indexWriter.link(links);
        slice.forEach(([path], i) => {
          this.writer.linked(path, `${base}/${path}`, idents[i] ?? null);
        });
      }
    } else if (root) for (const [path] of stream.files) this.writer.linkSync(path, `${base}/${path}`, owner);
    // the files of reused packages stay as the build that read them left them: a site path under
    // index/<label>/ (or, for the root index, p/ at the top) that only the mirror writes
    let keptCount = 0;
    for (const memo of kept) {
      const entries = this.writer.previousFiles && intactOutputs(this.writer.previousFiles, memo, root);
      if (entries) {
        this.writer.keepEntries(entries);
        // one site file per index file, two for the root index (memo.files is made only when asked)
        keptCount += root ? entries.length / 2 : entries.length;
        continue;
      }
      for (const [path, key] of outputsOf(memo, root)) this.writer.keepPrevious(path, key);
      keptCount += memo.files.length;
    }
    return stream.files.length + keptCount;
  }
}
