import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { posix, resolve, sep } from "node:path";
import { dataError, ExitCode, PkgError } from "@pkg/common";
import { applyCommit, type CommitPlan, linkOrCopy } from "./commit.js";
import { type FileIdent, identOf, isForgotten, type MemoFile, sha256Hex } from "./memo.js";

/** A relative site path: `/`-separated, no empty, `.` or `..` segment, no backslash or control character. */
export function isSafeRelativePath(path: string): boolean {
  if (/(?:^|\/)\.{0,2}(?:\/|$)/.test(path) || path.includes("\\")) return false;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) < 0x20) return false;
  return true;
}

/** Where a build puts what it produces. */
export interface WriterOptions {
  /**
   * The files of the previous output in `root` (an incremental build): a file whose key is
   * unchanged stays as it is, anything new is written into `stage` and moved into `root` by
   * `commit`, and previous files no longer produced are removed then. Without it, `root` is an
   * empty directory written directly.
   */
  previous?: { files: Map<string, MemoFile>; stage: string };
  /**
   * The files of another output (`root`, on the same filesystem) that `root` is built anew beside:
   * a file whose key is the same there is linked (else copied) from it rather than produced again.
   */
  linkFrom?: { files: Map<string, MemoFile>; root: string };
}

/** Numbers the writers of this process (see MemoFile.seen). */
let stamps = 0;

/**
 * Writes the files of one site under its root. Every path is checked to stay inside the root, and a
 * second write to one path (or a file where a directory is, or the reverse) is a route collision.
 * Each file carries a key (what produced it); with a previous output, a file whose key is the same
 * is kept rather than written again.
 */
export class SiteWriter {
  readonly root: string;
  /** The files of this build: path to key and identity. Updating an output in place, this is the
   *  previous output's map itself, changed as files are written and removed at commit. */
  readonly files: Map<string, MemoFile>;
  /** Marks what this build produced or kept (see MemoFile.seen). */
  private readonly stamp = ++stamps;
  /** Files written (or linked) by this build, and files kept from the previous output. */
  readonly counts = { written: 0, kept: 0 };
  private readonly owners = new Map<string, string>();
  private readonly dirs = new Set<string>();
  private readonly made = new Set<string>();
  private readonly previous: Map<string, MemoFile> | undefined;
  private readonly stage: string | undefined;
  /** The other output files are linked from, when building anew beside it. */
  private readonly linkRoot: string | undefined;
  /** Incremental: staged files to move into place, and second names to link, at commit. */
  private readonly moves: [path: string, staged: string][] = [];
  private readonly links: [path: string, from: string][] = [];
  private staged = 0;

  constructor(root: string, options: WriterOptions = {}) {
    this.root = resolve(root);
    this.previous = options.previous?.files ?? options.linkFrom?.files;
    this.files = options.previous?.files ?? new Map();
    this.stage = options.previous === undefined ? undefined : resolve(options.previous.stage);
    this.linkRoot = options.linkFrom === undefined ? undefined : resolve(options.linkFrom.root);
  }

  get fileCount(): number {
    return this.files.size;
  }

  /** Checks and claims a site path for `owner`; returns it normalised. */
  claim(path: string, owner: string): string {
    const normalised = path.startsWith("/") ? path.replace(/^\/+/, "") : path;
    // a plain path (no empty, `.` or `..` segment) stays inside the root
    if (!isSafeRelativePath(normalised)) {
      throw dataError(
        `refusing to write ${JSON.stringify(path)} for ${owner}: not a plain path inside the site`,
      );
    }
    const previous = this.owners.get(normalised);
    if (previous !== undefined || this.dirs.has(normalised)) {
      throw dataError(
        `route collision: /${normalised} is produced by ${previous ?? "a directory"} and by ${owner}`,
      );
    }
    // the parent directories, deepest first, up to one already known (its own were checked then)
    for (let at = normalised.lastIndexOf("/"); at > 0; at = normalised.lastIndexOf("/", at - 1)) {
      const dir = normalised.slice(0, at);
      if (this.dirs.has(dir)) break;
      const file = this.owners.get(dir);
      if (file !== undefined)
        throw dataError(
          `route collision: /${dir} is produced by ${file} and used as a directory by ${owner}`,
        );
      this.dirs.add(dir);
    }
    this.owners.set(normalised, owner);
    return normalised;
  }

  /**
   * Registers a path the previous build claimed and checked (a file of a package it read, kept as
   * it is): only a second claim of the very same path is refused.
   */
  claimKnown(path: string, owner: string): string {
    const previous = this.owners.get(path);
    if (previous !== undefined || this.dirs.has(path))
      throw dataError(
        `route collision: /${path} is produced by ${previous ?? "a directory"} and by ${owner}`,
      );
    this.owners.set(path, owner);
    return path;
  }

  /** True (and the file kept, or linked from the other output) when the previous output holds
   *  `path` with `key`. */
  private keep(path: string, key: string): boolean {
    const previous = this.previous?.get(path);
    if (previous === undefined || previous.key !== key || key === "") return false;
    if (this.linkRoot === undefined) previous.seen = this.stamp;
    else {
      const absolute = resolve(this.root, path);
      this.ensureDir(absolute.slice(0, absolute.lastIndexOf(sep)));
      const linked = linkOrCopy(resolve(this.linkRoot, path), absolute);
      this.files.set(path, this.entry(key, linked ? previous.ident : statIdent(absolute)));
    }
    this.counts.kept++;
    return true;
  }

  /** Creates `dir` (absolute) and its missing parents, one mkdir each. */
  ensureDir(dir: string): void {
    if (this.made.has(dir)) return;
    try {
      mkdirSync(dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") {
        this.ensureDir(dir.slice(0, dir.lastIndexOf(sep)));
        mkdirSync(dir);
      } else if (code !== "EEXIST") throw error;
    }
    this.made.add(dir);
  }

  /** Where a new version of `path` is written: in place, or a fresh name in the stage. */
  private target(path: string): string {
    if (this.stage === undefined) {
      const absolute = resolve(this.root, path);
      this.ensureDir(absolute.slice(0, absolute.lastIndexOf(sep)));
      return absolute;
    }
    if (this.staged === 0) this.ensureDir(this.stage);
    const staged = `${this.stage}${sep}f${this.staged++}`;
    this.moves.push([path, staged]);
    return staged;
  }

  /** A file of this build (an entry of its own: two names never share one, see MemoFile.seen). */
  private entry(key: string, ident: FileIdent | undefined): MemoFile {
    return ident === undefined ? { key, seen: this.stamp } : { key, ident, seen: this.stamp };
  }

  /** Creates the file `absolute` (a stream of this build's own, not a site path yet) with `data`. */
  createFile(absolute: string, data: Uint8Array, shownAs: string): FileIdent {
    try {
      return writeNew(absolute, data);
    } catch (error) {
      return ioError(shownAs)(error as NodeJS.ErrnoException);
    }
  }

  /**
   * Takes a file already written for `path` (with `key` and `ident`): in place in the root for a new
   * site, or at `staged` to be moved there at commit (unless the previous output has it already).
   */
  adopt(path: string, owner: string, key: string, ident: FileIdent, staged?: string): void {
    const claimed = this.claim(path, owner);
    // a file written in place is this build's; a staged one stays out when the output has it
    if (staged !== undefined && this.keep(claimed, key)) return;
    if (staged !== undefined) this.moves.push([claimed, staged]);
    this.written(claimed, key, ident);
  }

  /** Keeps a file of the previous output that this build did not produce again (a reused package's
   *  index file); the caller checked that the previous output has it with `key`. */
  keepPrevious(path: string, key: string): void {
    if (!this.keep(path, key)) throw new Error(`${path} is not in the previous output`);
  }

  /** The files of the previous output this build updates in place (entries `keepEntries` takes). */
  get previousFiles(): Map<string, MemoFile> | undefined {
    return this.linkRoot === undefined ? this.previous : undefined;
  }

  /** keepPrevious for files given by their entries in `previousFiles` (see intactOutputs). */
  keepEntries(entries: readonly MemoFile[]): void {
    for (const entry of entries) {
      if (isForgotten(entry)) throw new Error("internal: keeping a file changed since");
      entry.seen = this.stamp;
    }
    this.counts.kept += entries.length;
  }

  /** Records a file written by someone else (a page worker) at the target `prepare` gave. */
  written(path: string, key: string, ident: FileIdent): void {
    this.files.set(path, this.entry(key, ident));
    this.counts.written++;
  }

  /**
   * Writes synchronously: for many small files (the mirrored index) one blocking call each is several
   * times faster than queueing them through the thread pool, and nothing else runs meanwhile.
   */
  writeSync(path: string, data: string | Uint8Array, owner: string, key = sha256Hex(data)): void {
    const claimed = this.claim(path, owner);
    if (this.keep(claimed, key)) return;
    try {
      this.written(claimed, key, writeNew(this.target(claimed), data));
    } catch (error) {
      ioError(path)(error as NodeJS.ErrnoException);
    }
  }

  /**
   * A second name for a file of this build (`sameAs`, a site path): a hard link (the same bytes,
   * not written twice) where the filesystem has them, else a copy.
   */
  linkSync(path: string, sameAs: string, owner: string, known = false): void {
    const claimed = known ? this.claimKnown(path, owner) : this.claim(path, owner);
    const source = this.files.get(sameAs);
    if (source === undefined) throw new Error(`${sameAs} is not a file of this build`);
    if (this.keep(claimed, source.key)) return;
    if (this.stage !== undefined) {
      this.links.push([claimed, sameAs]);
      this.files.set(claimed, this.entry(source.key, source.ident));
      this.counts.written++;
      return;
    }
    try {
      const absolute = this.target(claimed);
      const from = resolve(this.root, sameAs);
      const linked = linkOrCopy(from, absolute);
      this.files.set(claimed, this.entry(source.key, linked ? source.ident : statIdent(absolute)));
      this.counts.written++;
    } catch (error) {
      ioError(path)(error as NodeJS.ErrnoException);
    }
  }

  /**
   * Claims `path` for a second name of `sameAs` (a file of this build) that another thread links
   * (a new site only: nothing is kept from elsewhere); `linked` records it once made.
   */
  claimLink(path: string, sameAs: string, owner: string): { from: string; to: string } {
    if (this.previous !== undefined)
      throw new Error("internal: a link made elsewhere onto a previous output");
    const claimed = this.claim(path, owner);
    return { from: resolve(this.root, sameAs), to: resolve(this.root, claimed) };
  }

  /** Records a second name made as claimLink said: `ident` is null when it is a link (its file's
   *  identity), the copy's when the filesystem has no hard links. */
  linked(path: string, sameAs: string, ident: FileIdent | null): void {
    const source = this.files.get(sameAs);
    if (source === undefined) throw new Error(`${sameAs} is not a file of this build`);
    this.files.set(path, this.entry(source.key, ident ?? source.ident));
    this.counts.written++;
  }

  /** For a page rendered elsewhere (a page worker), `path` claimed: true (kept) when the previous
   *  output has it with this key. */
  keepPage(path: string, key: string): boolean {
    return this.keep(path, key);
  }

  /** The file a page worker writes the new version of `path` (claimed) into; `written` then. */
  pageTarget(path: string): string {
    return this.target(path);
  }

  /**
   * Writes what `render` makes for `path`, keyed by `key` (a hash of everything the bytes are made
   * of): kept without rendering when the previous output has it with that key.
   */
  writeRendered(path: string, key: string, owner: string, render: () => string): void {
    const claimed = this.claim(path, owner);
    if (this.keep(claimed, key)) return;
    try {
      this.written(claimed, key, writeNew(this.target(claimed), render()));
    } catch (error) {
      ioError(path)(error as NodeJS.ErrnoException);
    }
  }

  async write(path: string, data: string | Uint8Array, owner: string): Promise<void> {
    this.writeSync(path, data, owner);
  }

  async copy(path: string, from: string, owner: string): Promise<void> {
    let data: Buffer;
    try {
      data = readFileSync(from);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new PkgError(ExitCode.IoError, `cannot read ${from} for ${owner}: ${code}`);
    }
    this.writeSync(path, data, owner);
  }

  /**
   * Incremental: what moves the staged files into the root, links second names, and removes the
   * previous files no longer produced (dropped from `files`, which then describes the output as it
   * will be). `applyCommit` carries it out.
   */
  planCommit(): CommitPlan {
    const removals: string[] = [];
    if (this.stage !== undefined) {
      // what this build neither produced nor kept (deleting while iterating a Map is well defined)
      for (const [path, entry] of this.files) {
        if (entry.seen === this.stamp) continue;
        this.files.delete(path);
        // a memo naming a path that is not plain inside the root was not written by a build: that
        // file is none of the site's to remove
        if (isSafeRelativePath(path)) removals.push(path);
      }
    }
    return { moves: this.moves, links: this.links, removals };
  }

  /** Applies a plan of this writer's (see planCommit); returns the number of files removed. */
  applyCommit(plan: CommitPlan): number {
    if (this.stage === undefined) return 0;
    for (const path of applyCommit(this.root, plan)) {
      const entry = this.files.get(path);
      if (entry !== undefined)
        this.files.set(path, this.entry(entry.key, statIdent(resolve(this.root, path))));
    }
    return plan.removals.length;
  }

  /** planCommit and applyCommit at once (no record of the plan). */
  commit(): number {
    return this.applyCommit(this.planCommit());
  }

  /** The site path of a page route's `index.html`. */
  static pagePath(route: string): string {
    // a plain route (`/`, `/a/b/`: what the model makes) needs no normalizing, which for ten
    // thousand package pages took 14 ms of a rebuild
    if (plainRoute.test(route)) return `${route.slice(1)}index.html`;
    return posix.join(route, "index.html").replace(/^\/+/, "");
  }
}

/** A route of `/`-ended segments, none empty, `.` or `..`. */
const plainRoute = /^\/(?:(?!\.\.?\/)[^/]+\/)*$/;

/** Creates `file` (which must not exist) with `data`; returns its identity. */
function writeNew(file: string, data: string | Uint8Array): FileIdent {
  const fd = openSync(file, "wx");
  try {
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    let done = 0;
    while (done < bytes.byteLength) done += writeSync(fd, bytes, done, bytes.byteLength - done);
    return identOf(fstatSync(fd));
  } finally {
    closeSync(fd);
  }
}

function statIdent(file: string): FileIdent {
  const fd = openSync(file, "r");
  try {
    return identOf(fstatSync(fd));
  } finally {
    closeSync(fd);
  }
}

function ioError(path: string): (error: NodeJS.ErrnoException) => never {
  return (error) => {
    if (error instanceof PkgError) throw error;
    throw new PkgError(ExitCode.IoError, `cannot write ${path}: ${error.code ?? error.message}`, {
      cause: error,
    });
  };
}
