import { randomBytes } from "node:crypto";
import { closeSync, openSync, readFileSync, readSync, writeSync, writevSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { type PackageSummary, type PackageView, summaryKeys } from "../site/model/types.js";
import type { BuildMemo, FileIdent, MemoFile, MemoPackage } from "./memo.js";

// The memo's file (memo.ts says what a memo is): loading and saving it, and what a package loaded
// from it keeps of it.

/** Format of the memo file; a memo of another format is ignored. */
const FORMAT = 6;

/**
 * The memo file: a JSON header line, then the files as three sections (their paths, one a line;
 * their keys, one a line, empty for the content address an index object's name holds; their
 * identities as float64 triples), then the packages, one line each. Columns read and written in a
 * few calls each: a JSON array per file made loading and saving the memo of a 10,000-package site
 * take most of a rebuild.
 *
 * The site files of each package's index files (see `outputsOf`) come first, package after
 * package, and a package's line starts with where its files start and how many there are
 * (`<at>\t<count>\t<json>\t<rest of its view>`): a loaded package knows its files' entries
 * without looking up a hundred thousand paths, which checking and keeping them by path took a
 * fifth of a rebuild. A rebuild parses the JSON (with the view's summary) of every package, the
 * rest of a view only for a page it renders.
 */
interface MemoHeader {
  format: number;
  out: string;
  renderer: string;
  files: number;
  pathBytes: number;
  keyBytes: number;
}

/** A package's line is this JSON, a tab, and the rest of its view (what the summary leaves out). */
type PackageJson = Omit<MemoPackage, "files" | "view"> & { objects: string[] };

/** The package's line as loaded (its bytes after `<count>\t`): written again as it is while a
 *  build keeps the same entry there. */
const packageLines = new WeakMap<MemoPackage, { index: number; line: Uint8Array }>();

/** A loaded package's site files: `count` entries of the loaded memo's files from `at`, in the
 *  order of `outputsOf`. */
interface LoadedOutputs {
  files: Map<string, MemoFile>;
  /** The loaded memo's file columns, as read. */
  paths: readonly string[];
  keys: readonly string[];
  idents: Float64Array;
  entries: readonly MemoFile[];
  at: number;
  count: number;
  /** The package's index files (each has one site file, or two for the root index). */
  perCopy: number;
}

const loadedOutputs = new WeakMap<MemoPackage, LoadedOutputs>();

/**
 * The entries of `files` holding a package's site files (see outputsOf), when the package was
 * loaded with that memo and they are all still there as recorded: none dropped as changed since.
 * Undefined otherwise (the caller then looks them up by path).
 */
export function intactOutputs(
  files: Map<string, MemoFile>,
  memo: MemoPackage,
  root: boolean,
): readonly MemoFile[] | undefined {
  const run = intactRun(files, memo, root);
  return run?.entries.slice(run.at, run.at + run.count);
}

function intactRun(
  files: Map<string, MemoFile>,
  memo: MemoPackage,
  root: boolean,
): LoadedOutputs | undefined {
  const loaded = loadedOutputs.get(memo);
  if (loaded === undefined || loaded.files !== files) return undefined;
  if (loaded.count !== loaded.perCopy * (root ? 2 : 1)) return undefined;
  // a dropped file's entry has lost its key (see dropFiles); a kept one is as loaded
  for (let i = loaded.at; i < loaded.at + loaded.count; i++)
    if (loaded.entries[i]?.key === "") return undefined;
  return loaded;
}

/** Whether `path` is `base + dir + name`, without making that string. */
function isJoined(path: string, base: string, dir: string, name: string): boolean {
  return (
    path.length === base.length + dir.length + name.length &&
    path.startsWith(base) &&
    path.startsWith(dir, base.length) &&
    path.endsWith(name)
  );
}

/**
 * Whether the loaded files from `at` are the site files of a package's line (outputsOf's order,
 * for the root index when there are two per index file) with the keys its digests imply: its root
 * file keyed by the root digest, its objects saved with the key their names imply. Compared piece
 * by piece rather than by making each path.
 */
function holdsOutputs(
  columns: { paths: readonly string[]; keys: readonly string[]; entries: readonly MemoFile[] },
  at: number,
  count: number,
  key: string,
  json: PackageJson,
): boolean {
  const { paths, keys, entries } = columns;
  const perCopy = json.objects.length + 1;
  const root = count === perCopy * 2;
  if ((!root && count !== perCopy) || at + count > paths.length) return false;
  const base = `index/${json.label}/`;
  const copies = root ? ["", base] : [base];
  const digestHex = json.digest.slice("sha256:".length);
  let i = at;
  const holds = (dir: string, name: string, implied: boolean) => {
    for (let c = copies.length - 1; c >= 0; c--, i++) {
      if (!isJoined(paths[i] as string, copies[c] as string, dir, name)) return false;
      if (implied ? keys[i] !== "" : entries[i]?.key !== digestHex) return false;
    }
    return true;
  };
  if (!json.digest.startsWith("sha256:") || !holds("p/", `${key}.json`, false)) return false;
  const objects = `p/${key}/o/sha256/`;
  for (const name of json.objects) if (!holds(objects, name, true)) return false;
  return true;
}

/**
 * Whether `key` is the one `path` implies, without building strings: at 100,000 files a memo's
 * load and save did little else. `key` is a digest this module wrote, so its 64 characters after
 * `sha256:` are hex; the name must start with them and a dot, in an `o/sha256` directory.
 */
function impliesKey(path: string, key: string): boolean {
  const at = path.lastIndexOf("/");
  return (
    key.length === 71 &&
    key.startsWith("sha256:") &&
    path.length > at + 66 &&
    path.charCodeAt(at + 65) === 46 &&
    path.startsWith(key.slice(7), at + 1) &&
    path.endsWith("/o/sha256", at)
  );
}

/** The key of a file the memo saved with an empty key: the one its path implies (see saveMemo). */
function savedImpliedKey(path: string): string {
  const at = path.lastIndexOf("/");
  return `sha256:${path.slice(at + 1, at + 65)}`;
}

/** The names of a package's objects, or undefined when its files are not the ones its digests
 *  name (it is then left out of the memo, and read again by the next build). */
function objectNames(key: string, memo: MemoPackage): string[] | undefined {
  const objects: string[] = [];
  const prefix = `p/${key}/o/sha256/`;
  for (const [path, fileKey] of memo.files) {
    if (path === `p/${key}.json` && `sha256:${fileKey}` === memo.digest) continue;
    if (!path.startsWith(prefix) || !impliesKey(path, fileKey)) return undefined;
    objects.push(path.slice(prefix.length));
  }
  return objects;
}

/** A package's line (see PackageJson). */
function packageLine(index: number, key: string, memo: MemoPackage, objects: string[]): string {
  const { files: _files, view, summary: _summary, ...rest } = memo;
  const summary: Record<string, unknown> = {};
  const others: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(view())) {
    if (inSummary.has(field)) summary[field] = value;
    else others[field] = value;
  }
  const json: PackageJson = { ...rest, summary: summary as PackageSummary, objects };
  return `${JSON.stringify([index, key, json])}\t${JSON.stringify(others)}`;
}

const inSummary: ReadonlySet<string> = new Set(summaryKeys);

/** A package's index files as its line names them: its root, keyed by the root digest, and its
 *  objects, keyed by their names. */
function filesOf(key: string, digest: string, objects: readonly string[]): [string, string][] {
  const files: [string, string][] = [[`p/${key}.json`, digest.replace(/^sha256:/, "")]];
  for (const name of objects) files.push([`p/${key}/o/sha256/${name}`, `sha256:${name.slice(0, 64)}`]);
  return files;
}

function packageFromLine(key: string, json: PackageJson, restOfView: Buffer): MemoPackage {
  const { objects, ...rest } = json;
  let view: PackageView | undefined;
  let files: [string, string][] | undefined;
  const pkg = {
    ...rest,
    view: () => {
      view ??= {
        ...json.summary,
        ...(JSON.parse(restOfView.toString("utf8")) as Omit<PackageView, keyof PackageSummary>),
      };
      return view;
    },
  };
  // made when first asked, like the view: a rebuild keeps most packages by their loaded entries
  // (intactOutputs) and never needs these
  return Object.defineProperty(pkg, "files", {
    enumerable: true,
    get: () => {
      files ??= filesOf(key, json.digest, objects);
      return files;
    },
  }) as typeof pkg & Pick<MemoPackage, "files">;
}

/** Where the sections of a memo file start, from its header line (`headerEnd` is its newline);
 *  undefined when it is not a memo of this format. */
function layoutOf(headerLine: string, headerEnd: number) {
  const header = JSON.parse(headerLine) as MemoHeader;
  if (header?.format !== FORMAT) return undefined;
  const pathsAt = headerEnd + 1;
  const keysAt = pathsAt + header.pathBytes;
  const identsAt = keysAt + header.keyBytes;
  return { header, pathsAt, keysAt, identsAt, packagesAt: identsAt + header.files * 3 * 8 };
}

/** The files of a memo file as its columns (paths, keys, identities), and where its packages
 *  start; undefined when it is not a memo of this format. */
function memoColumns(
  bytes: Buffer,
):
  | { header: MemoHeader; paths: string[]; keys: string[]; idents: Float64Array; packagesAt: number }
  | undefined {
  const headerEnd = bytes.indexOf(10);
  const layout = layoutOf(bytes.toString("utf8", 0, headerEnd), headerEnd);
  if (layout === undefined) return undefined;
  const { header, pathsAt, keysAt, identsAt, packagesAt } = layout;
  const paths = bytes.toString("utf8", pathsAt, keysAt).split("\n");
  const keys = bytes.toString("utf8", keysAt, identsAt).split("\n");
  // copied out: a Float64Array needs an aligned start
  const idents = new Float64Array(
    bytes.buffer.slice(bytes.byteOffset + identsAt, bytes.byteOffset + packagesAt),
  );
  if (paths.length !== header.files || keys.length !== header.files || idents.length !== header.files * 3)
    return undefined;
  return { header, paths, keys, idents, packagesAt };
}

/** The file columns of the memo file `file` (see memoColumns), read without its packages (half the
 *  file, which the identity worker has no use for); undefined when it is not a memo of this format. */
export function readMemoColumns(file: string): ReturnType<typeof memoColumns> {
  const fd = openSync(file, "r");
  try {
    const head = Buffer.alloc(64 * 1024);
    const headBytes = readSync(fd, head, 0, head.length, 0);
    const headerEnd = head.subarray(0, headBytes).indexOf(10);
    const layout = headerEnd < 0 ? undefined : layoutOf(head.toString("utf8", 0, headerEnd), headerEnd);
    if (layout === undefined) return undefined;
    const { packagesAt } = layout;
    const bytes = Buffer.allocUnsafe(packagesAt);
    for (let done = 0; done < packagesAt; ) {
      const read = readSync(fd, bytes, done, packagesAt - done, done);
      if (read === 0) return undefined;
      done += read;
    }
    return memoColumns(bytes);
  } finally {
    closeSync(fd);
  }
}

/** The memo of `out`, or undefined when there is none usable (missing, unreadable, another format,
 *  another output or another renderer). */
export async function loadMemo(file: string, out: string, renderer: string): Promise<BuildMemo | undefined> {
  let bytes: Buffer;
  try {
    // in one read: tens of megabytes through the thread pool in chunks took several times as long
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  try {
    const columns = memoColumns(bytes);
    if (columns === undefined) return undefined;
    const { header, paths, keys, idents, packagesAt } = columns;
    if (header.out !== out || header.renderer !== renderer) return undefined;
    const files = new Map<string, MemoFile>();
    const entries: MemoFile[] = new Array(header.files);
    for (let i = 0; i < header.files; i++) {
      const path = paths[i] as string;
      // only a path that implies its key is saved with an empty one
      const key = keys[i] === "" ? savedImpliedKey(path) : (keys[i] as string);
      const entry: MemoFile = {
        key,
        ident: [idents[3 * i] ?? 0, idents[3 * i + 1] ?? 0, idents[3 * i + 2] ?? 0],
      };
      entries[i] = entry;
      files.set(path, entry);
    }
    const sources = new Map<number, Map<string, MemoPackage>>();
    for (let start = packagesAt; start < bytes.length; ) {
      const newline = bytes.indexOf(10, start);
      const end = newline < 0 ? bytes.length : newline;
      const lineStart = start;
      start = end + 1;
      if (end === lineStart) continue;
      // `<at>\t<count>\t<json>\t<rest of the view>`, found in the bytes: only the JSON is decoded
      // here (JSON.stringify leaves no tab in it), the rest of the view when it is asked for
      const countTab = bytes.indexOf(9, lineStart);
      const jsonTab = countTab < 0 ? -1 : bytes.indexOf(9, countTab + 1);
      const viewTab = jsonTab < 0 ? -1 : bytes.indexOf(9, jsonTab + 1);
      if (viewTab < 0 || viewTab > end) return undefined;
      const at = Number(bytes.toString("latin1", lineStart, countTab));
      const count = Number(bytes.toString("latin1", countTab + 1, jsonTab));
      const [index, key, json] = JSON.parse(bytes.toString("utf8", jsonTab + 1, viewTab)) as [
        number,
        string,
        PackageJson,
      ];
      // the line's own bytes, written again as they are (see saveMemo)
      const line = bytes.subarray(jsonTab + 1, end);
      let packages = sources.get(index);
      if (packages === undefined) {
        packages = new Map();
        sources.set(index, packages);
      }
      const pkg = packageFromLine(key, json, bytes.subarray(viewTab + 1, end));
      packageLines.set(pkg, { index, line });
      if (Number.isSafeInteger(at) && at >= 0 && holdsOutputs({ paths, keys, entries }, at, count, key, json))
        loadedOutputs.set(pkg, {
          files,
          paths,
          keys,
          idents,
          entries,
          at,
          count,
          perCopy: json.objects.length + 1,
        });
      packages.set(key, pkg);
    }
    const memo: BuildMemo = { out, renderer, files, sources };
    loadedColumns.set(memo, { paths, idents });
    return memo;
  } catch {
    return undefined;
  }
}

/** The file columns a memo was loaded from, in its files' order (see identity-check.ts). */
const loadedColumns = new WeakMap<BuildMemo, { paths: string[]; idents: Float64Array }>();

export function columnsOf(memo: BuildMemo): { paths: string[]; idents: Float64Array } | undefined {
  return loadedColumns.get(memo);
}

/** Whether packages viewed in `context` (an index context's JSON) belong to the root index. */
function rootContext(context: string, known: Map<string, boolean>): boolean {
  let root = known.get(context);
  if (root === undefined) {
    try {
      root = (JSON.parse(context) as { root?: unknown }).root === true;
    } catch {
      root = false;
    }
    known.set(context, root);
  }
  return root;
}

/** The saved site files of a package (outputsOf's order), or undefined when one of them is not
 *  in `files` as the package recorded it (its line is then left out: the next build reads it). */
function savedOutputs(
  files: Map<string, MemoFile>,
  pkg: MemoPackage,
  root: boolean,
):
  | LoadedOutputs
  | { paths: readonly string[]; entries: readonly MemoFile[]; at: number; count: number }
  | undefined {
  const loaded = intactRun(files, pkg, root);
  if (loaded !== undefined) return loaded;
  // outputsOf's order, its paths not kept (a new site's memo saves ten thousand packages this way)
  const paths: string[] = [];
  const entries: MemoFile[] = [];
  const add = (path: string, key: string) => {
    const entry = files.get(path);
    if (entry?.key !== key) return false;
    paths.push(path);
    entries.push(entry);
    return true;
  };
  const base = `index/${pkg.label}/`;
  for (const [path, key] of pkg.files) {
    if (!add(base + path, key) || (root && !add(path, key))) return undefined;
  }
  return { paths, entries, at: 0, count: entries.length };
}

/** Writes the memo (a temporary file renamed over the old one), section by section: the site
 *  files of each package whose line is saved first, then the other files. Files without identity
 *  are left out. */
export async function saveMemo(file: string, memo: BuildMemo): Promise<void> {
  const paths: string[] = [];
  const keys: string[] = [];
  const idents = new Float64Array(memo.files.size * 3);
  const add = (path: string, { key, ident }: MemoFile) => {
    idents.set(ident as FileIdent, paths.length * 3);
    paths.push(path);
    keys.push(impliesKey(path, key) ? "" : key);
  };
  /** The packages section: each line's start, and the line (the loaded bytes, or made when
   *  written: ten thousand lines of a new site's memo are not all held at once). */
  const lines: PackageLine[] = [];
  const placed = new Set<MemoFile>();
  const roots = new Map<string, boolean>();
  for (const [index, packages] of memo.sources) {
    for (const [key, pkg] of packages) {
      const loaded = packageLines.get(pkg);
      let line: Uint8Array | (() => string) | undefined = loaded?.index === index ? loaded.line : undefined;
      if (line === undefined) {
        const objects = objectNames(key, pkg);
        if (objects === undefined) continue;
        line = () => packageLine(index, key, pkg, objects);
      }
      const root = rootContext(pkg.context, roots);
      const outputs = savedOutputs(memo.files, pkg, root);
      if (outputs === undefined) continue;
      const count = outputs.count;
      const at = paths.length;
      if ("keys" in outputs) {
        // kept as loaded: the loaded columns say what to save
        idents.set(outputs.idents.subarray(outputs.at * 3, (outputs.at + count) * 3), at * 3);
        for (let i = outputs.at; i < outputs.at + count; i++) {
          placed.add(outputs.entries[i] as MemoFile);
          paths.push(outputs.paths[i] as string);
          keys.push(outputs.keys[i] as string);
        }
        lines.push([`${at}\t${count}\t`, line]);
        continue;
      }
      for (let i = outputs.at; i < outputs.at + count; i++) {
        const entry = outputs.entries[i] as MemoFile;
        if (entry.ident === undefined) break;
        placed.add(entry);
        add(outputs.paths[i] as string, entry);
      }
      // a file without identity is not saved, nor the package holding it
      if (paths.length - at === count) lines.push([`${at}\t${count}\t`, line]);
    }
  }
  for (const [path, entry] of memo.files) {
    if (entry.ident === undefined || entry.key === "" || placed.has(entry)) continue;
    add(path, entry);
  }
  const pathText = paths.join("\n");
  const keyText = keys.join("\n");
  const header: MemoHeader = {
    format: FORMAT,
    out: memo.out,
    renderer: memo.renderer,
    files: paths.length,
    pathBytes: Buffer.byteLength(pathText),
    keyBytes: Buffer.byteLength(keyText),
  };
  const temp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  await mkdir(join(file, ".."), { recursive: true });
  const fd = openSync(temp, "w");
  let open = true;
  try {
    writeAll(fd, `${JSON.stringify(header)}\n`);
    writeAll(fd, pathText);
    writeAll(fd, keyText);
    writeAll(fd, new Uint8Array(idents.buffer, 0, paths.length * 3 * 8));
    writeLines(fd, lines);
    closeSync(fd);
    open = false;
    await rename(temp, file);
  } finally {
    if (open) closeSync(fd);
    await rm(temp, { force: true });
  }
}

/** A package's line as saveMemo writes it: where its files start and how many, then the line. */
type PackageLine = [start: string, line: Uint8Array | (() => string)];

/** Writes the lines a batch at a time: the loaded lines go out as the bytes they were read as,
 *  never encoded again. */
function writeLines(fd: number, lines: readonly PackageLine[]): void {
  const newline = Buffer.from("\n");
  let batch: Uint8Array[] = [];
  const flush = () => {
    let bytes = batch.reduce((n, piece) => n + piece.byteLength, 0);
    while (bytes > 0) {
      let written = writevSync(fd, batch);
      bytes -= written;
      // a short write: what is left of the batch goes again
      while (batch.length > 0 && written >= (batch[0] as Uint8Array).byteLength) {
        written -= (batch.shift() as Uint8Array).byteLength;
      }
      if (written > 0) batch[0] = (batch[0] as Uint8Array).subarray(written);
    }
    batch = [];
  };
  for (const [start, line] of lines) {
    batch.push(Buffer.from(start), typeof line === "function" ? Buffer.from(line()) : line, newline);
    // IOV_MAX is 1024 on Linux
    if (batch.length >= 1020) flush();
  }
  flush();
}

function writeAll(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  for (let done = 0; done < bytes.byteLength; ) done += writeSync(fd, bytes, done, bytes.byteLength - done);
}
