import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type PackageSummary, type PackageView, summaryKeys } from "../site/model/types.js";
import {
  type BuildMemo,
  type FileIdent,
  type FileRows,
  forget,
  isForgotten,
  LoadedFile,
  type MemoFile,
  type MemoPackage,
} from "./memo.js";
import {
  FORMAT,
  impliesKey,
  isBaseName,
  type MemoColumns,
  type MemoSections,
  memoColumns,
  type PackageLine,
  savedImpliedKey,
  stemOf,
  writeMemoFile,
} from "./memo-format.js";

// The memo's files (memo.ts says what a memo is, memo-format.ts how its files are laid out):
// loading and saving a memo, and what a package loaded from it keeps of it.

/** A memo file records the changes since its base while they stay under this many files and
 *  packages (or an eighth of the base's, when more); beyond, the memo is written anew. */
const DELTA_FLOOR = 1000;

/** A package's line is this JSON, a tab, and the rest of its view (what the summary leaves out). */
type PackageJson = Omit<MemoPackage, "files" | "view"> & { objects: string[] };

/** What a memo was loaded from, by its files' map (the one the build then updates): what a memo
 *  file made against the same base leaves out. */
interface LoadedBase {
  /** The base file's directory, name and id. */
  dir: string;
  ref: { name: string; id: string };
  out: string;
  renderer: string;
  /** What its entries were loaded from. */
  rows: FileRows;
  /** The base file's columns (the identity worker reads them too), and its entries. */
  paths: string[];
  idents: Float64Array;
  entries: readonly MemoFile[];
  packages: readonly [number, string][];
  /** The memo file's own columns. */
  changed: Columns;
}

type Columns = { paths: string[]; idents: Float64Array };

const loadedBases = new WeakMap<Map<string, MemoFile>, LoadedBase>();

/** A loaded memo file's file columns, as read, and their entries in `files`. */
interface LoadedColumns {
  files: Map<string, MemoFile>;
  paths: readonly string[];
  keys: readonly string[];
  idents: Float64Array;
  entries: readonly MemoFile[];
}

/** A loaded package's site files: `count` rows of the loaded columns from `at`, in the order of
 *  `outputsOf`. */
interface LoadedRun {
  columns: LoadedColumns;
  at: number;
  count: number;
  /** The package's index files (each has one site file, or two for the root index). */
  perCopy: number;
}

/**
 * A package loaded from a memo file. Its whole view is parsed from the rest of its line when first
 * asked, its index files listed when first asked; it keeps its line's bytes (written again as they
 * are while a build keeps it under the same source) and where its site files' rows are. Its own
 * fields are a MemoPackage's alone: what saving needs is private.
 */
class LoadedPackage implements MemoPackage {
  readonly digest: string;
  readonly label: string;
  readonly context: string;
  readonly summary: PackageSummary;
  readonly viewHash: string;
  readonly readme?: string;
  readonly view: () => PackageView;
  readonly #key: string;
  readonly #objects: readonly string[];
  #files: [string, string][] | undefined;
  readonly #index: number;
  readonly #line: Uint8Array;
  readonly #base: boolean;
  readonly #run: LoadedRun | undefined;

  constructor(
    key: string,
    json: PackageJson,
    restOfView: Buffer,
    index: number,
    line: Uint8Array,
    base: boolean,
    run: LoadedRun | undefined,
  ) {
    this.digest = json.digest;
    this.label = json.label;
    this.context = json.context;
    this.summary = json.summary;
    this.viewHash = json.viewHash;
    if (json.readme !== undefined) this.readme = json.readme;
    let view: PackageView | undefined;
    this.view = () => {
      view ??= {
        ...json.summary,
        ...(JSON.parse(restOfView.toString("utf8")) as Omit<PackageView, keyof PackageSummary>),
      };
      return view;
    };
    this.#key = key;
    this.#objects = json.objects;
    this.#index = index;
    this.#line = line;
    this.#base = base;
    this.#run = run;
  }

  /** Made when first asked, like the view: a rebuild keeps most packages by their loaded entries
   *  (intactOutputs) and never needs these. */
  get files(): [string, string][] {
    this.#files ??= filesOf(this.#key, this.digest, this.#objects);
    return this.#files;
  }

  /** Its line's bytes, when saved under the source it was loaded under. */
  lineUnder(index: number): Uint8Array | undefined {
    return index === this.#index ? this.#line : undefined;
  }

  /** Whether it is as the base file has it under source `index`. */
  isBaseUnder(index: number): boolean {
    return this.#base && index === this.#index;
  }

  /** Where its site files' rows are, when they were as its line says. */
  get run(): LoadedRun | undefined {
    return this.#run;
  }
}

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
  return run?.columns.entries.slice(run.at, run.at + run.count);
}

function intactRun(files: Map<string, MemoFile>, memo: MemoPackage, root: boolean): LoadedRun | undefined {
  const run = memo instanceof LoadedPackage ? memo.run : undefined;
  if (run === undefined || run.columns.files !== files) return undefined;
  if (run.count !== run.perCopy * (root ? 2 : 1)) return undefined;
  // a dropped file's entry has lost its key (see dropFiles); a kept one is as loaded
  const { entries } = run.columns;
  for (let i = run.at; i < run.at + run.count; i++) {
    const entry = entries[i];
    if (entry === undefined || isForgotten(entry)) return undefined;
  }
  return run;
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
  columns: LoadedColumns,
  at: number,
  count: number,
  key: string,
  json: PackageJson,
): boolean {
  const { paths, keys, entries } = columns;
  const perCopy = json.objects.length + 1;
  const root = count === perCopy * 2;
  if ((!root && count !== perCopy) || at + count > paths.length || !json.digest.startsWith("sha256:"))
    return false;
  const base = `index/${json.label}/`;
  const digestHex = json.digest.slice("sha256:".length);
  const rootName = `${key}.json`;
  const objects = `p/${key}/o/sha256/`;
  // row by row: the index copy of each file, then (for the root index) its root copy
  for (let file = 0, i = at; file < perCopy; file++) {
    const name = file === 0 ? rootName : (json.objects[file - 1] as string);
    const dir = file === 0 ? "p/" : objects;
    for (let copy = 0; copy < (root ? 2 : 1); copy++, i++) {
      if (!isJoined(paths[i] as string, copy === 0 ? base : "", dir, name)) return false;
      if (file === 0 ? entries[i]?.key !== digestHex : keys[i] !== "") return false;
    }
  }
  return true;
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

/** Where the entries of a loaded memo file (see LoadedFile) read their keys and identities. */
function rowsOf({ paths, keys, idents }: MemoColumns): FileRows {
  return {
    // only a path that implies its key is saved with an empty one
    keyOf: (row) => (keys[row] === "" ? savedImpliedKey(paths[row] as string) : (keys[row] as string)),
    identOf: (row) => [idents[3 * row] ?? 0, idents[3 * row + 1] ?? 0, idents[3 * row + 2] ?? 0],
  };
}

/**
 * Adds the file rows of a loaded memo file (read through `rows`) to `files` and returns their
 * entries, in row order. A memo file's entry replaces its base's, which is forgotten: a package
 * linked to it then looks its files up by path.
 */
function addRows(
  files: Map<string, MemoFile>,
  columns: MemoColumns,
  rows: FileRows,
  base: boolean,
): MemoFile[] {
  const { header, paths } = columns;
  const entries: MemoFile[] = new Array(header.files);
  for (let i = 0; i < header.files; i++) {
    const path = paths[i] as string;
    const entry = new LoadedFile(rows, i);
    if (!base) {
      const replaced = files.get(path);
      if (replaced !== undefined) forget(replaced);
    }
    entries[i] = entry;
    files.set(path, entry);
  }
  return entries;
}

/**
 * Adds the packages of a loaded memo file (`bytes`, its `columns` and their `entries`) to
 * `sources`, each linked to its files' entries when they are as its line says; returns their
 * (source, key) pairs, or undefined when a line is not of this format.
 */
function addPackages(
  memo: BuildMemo,
  bytes: Buffer,
  columns: MemoColumns,
  entries: readonly MemoFile[],
  base: boolean,
): [number, string][] | undefined {
  const { paths, keys, idents, packagesAt } = columns;
  const loaded: LoadedColumns = { files: memo.files, paths, keys, idents, entries };
  const added: [number, string][] = [];
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
    const at = decimalIn(bytes, lineStart, countTab);
    const count = decimalIn(bytes, countTab + 1, jsonTab);
    const [index, key, json] = JSON.parse(bytes.toString("utf8", jsonTab + 1, viewTab)) as [
      number,
      string,
      PackageJson,
    ];
    let packages = memo.sources.get(index);
    if (packages === undefined) {
      packages = new Map();
      memo.sources.set(index, packages);
    }
    // the line's own bytes, written again as they are (see saveMemo)
    const line = bytes.subarray(jsonTab + 1, end);
    const run =
      at >= 0 && count >= 0 && holdsOutputs(loaded, at, count, key, json)
        ? { columns: loaded, at, count, perCopy: json.objects.length + 1 }
        : undefined;
    packages.set(key, new LoadedPackage(key, json, bytes.subarray(viewTab + 1, end), index, line, base, run));
    added.push([index, key]);
  }
  return added;
}

/** The decimal number in `bytes` from `from` to `to`, or -1 when they are not all digits. */
function decimalIn(bytes: Uint8Array, from: number, to: number): number {
  if (to <= from || to - from > 15) return -1;
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = (bytes[i] as number) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** The memo of `out` in `file` (with its base), or undefined when there is none usable (missing,
 *  unreadable, another format, another output or another renderer, its base gone). */
export async function loadMemo(file: string, out: string, renderer: string): Promise<BuildMemo | undefined> {
  try {
    const changedBytes = readFileSync(file);
    const changed = memoColumns(changedBytes);
    const ref = changed?.header.base;
    if (changed === undefined || ref === undefined || !isBaseName(ref.name, file)) return undefined;
    // in one read: tens of megabytes through the thread pool in chunks took several times as long
    const baseBytes = readFileSync(join(dirname(file), ref.name));
    const base = memoColumns(baseBytes);
    if (base === undefined || base.header.id !== ref.id) return undefined;
    for (const { header } of [base, changed])
      if (header.out !== out || header.renderer !== renderer) return undefined;
    const memo: BuildMemo = { out, renderer, files: new Map(), sources: new Map() };
    const baseRows = rowsOf(base);
    const baseEntries = addRows(memo.files, base, baseRows, true);
    for (const path of changed.removed) {
      const entry = memo.files.get(path);
      if (entry !== undefined) forget(entry);
      memo.files.delete(path);
    }
    const changedEntries = addRows(memo.files, changed, rowsOf(changed), false);
    const basePackages = addPackages(memo, baseBytes, base, baseEntries, true);
    if (basePackages === undefined) return undefined;
    for (const [index, key] of changed.header.removedPackages ?? []) memo.sources.get(index)?.delete(key);
    if (addPackages(memo, changedBytes, changed, changedEntries, false) === undefined) return undefined;
    loadedBases.set(memo.files, {
      dir: dirname(file),
      ref,
      out,
      renderer,
      rows: baseRows,
      paths: base.paths,
      idents: base.idents,
      entries: baseEntries,
      packages: basePackages,
      changed: { paths: changed.paths, idents: changed.idents },
    });
    return memo;
  } catch {
    return undefined;
  }
}

/** The file columns a memo was loaded from (see identity-check.ts): its base file's, which the
 *  identity worker reads too, and its memo file's. */
export function columnsOf(memo: BuildMemo): { base: Columns; changed: Columns } | undefined {
  const loaded = loadedBases.get(memo.files);
  return loaded && { base: { paths: loaded.paths, idents: loaded.idents }, changed: loaded.changed };
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
  | LoadedRun
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

/**
 * Writes the memo of `memo.out` as the memo file `file` (a temporary file renamed over the old
 * one). When `memo` was loaded from a memo, and what changed since its base is still small, the
 * file records just that; else the whole memo goes into a new base file first (and the old ones
 * go), and the memo file records no change to it.
 */
export async function saveMemo(file: string, memo: BuildMemo): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const own = { format: FORMAT, out: memo.out, renderer: memo.renderer };
  const base = loadedBases.get(memo.files);
  const sameBase =
    base?.out === memo.out &&
    base.renderer === memo.renderer &&
    base.dir === dirname(file) &&
    isBaseName(base.ref.name, file);
  const changes = sameBase ? changesSince(base, memo) : undefined;
  if (base !== undefined && changes !== undefined) {
    const { sections, removed, removedPackages } = changes;
    const gone = removedPackages.length === 0 ? {} : { removedPackages };
    await writeMemoFile(file, { ...own, base: base.ref, ...gone }, sections, removed);
    return;
  }
  const id = randomBytes(8).toString("hex");
  const ref = { name: `${stemOf(file)}.base-${id}.json`, id };
  await writeMemoFile(
    join(dirname(file), ref.name),
    { ...own, id },
    sectionsOf(memo, undefined).sections,
    [],
  );
  await writeMemoFile(file, { ...own, base: ref }, new Sections(0), []);
  const prefix = `${stemOf(file)}.base-`;
  for (const name of readdirSync(dirname(file)))
    if (name !== ref.name && name.startsWith(prefix)) rmSync(join(dirname(file), name), { force: true });
}

/** The files and package lines of a memo file, as they are added. */
class Sections implements MemoSections {
  readonly paths: string[] = [];
  readonly keys: string[] = [];
  readonly idents: Float64Array;
  /** The packages section: each line's start, and the line (the loaded bytes, or made when
   *  written: ten thousand lines of a new site's memo are not all held at once). */
  readonly lines: PackageLine[] = [];
  /** Entries added with their package's files (not to be added again). */
  readonly placed = new Set<MemoFile>();

  constructor(files: number) {
    this.idents = new Float64Array(files * 3);
  }

  addFile(path: string, { key, ident }: MemoFile): void {
    this.idents.set(ident as FileIdent, this.paths.length * 3);
    this.paths.push(path);
    this.keys.push(impliesKey(path, key) ? "" : key);
  }

  /** Adds a package's line and, before it, its site files (outputsOf's order); false when it is
   *  left out (a file of it not in `files` as its line says, or without identity): the next build
   *  reads it again. */
  addPackage(
    index: number,
    key: string,
    pkg: MemoPackage,
    root: boolean,
    files: Map<string, MemoFile>,
  ): boolean {
    let line: Uint8Array | (() => string) | undefined =
      pkg instanceof LoadedPackage ? pkg.lineUnder(index) : undefined;
    if (line === undefined) {
      const objects = objectNames(key, pkg);
      if (objects === undefined) return false;
      line = () => packageLine(index, key, pkg, objects);
    }
    const outputs = savedOutputs(files, pkg, root);
    if (outputs === undefined) return false;
    const { paths, keys, idents, placed } = this;
    const count = outputs.count;
    const at = paths.length;
    if ("columns" in outputs) {
      // kept as loaded: the loaded columns say what to save
      const { columns } = outputs;
      idents.set(columns.idents.subarray(outputs.at * 3, (outputs.at + count) * 3), at * 3);
      for (let i = outputs.at; i < outputs.at + count; i++) {
        placed.add(columns.entries[i] as MemoFile);
        paths.push(columns.paths[i] as string);
        keys.push(columns.keys[i] as string);
      }
      this.lines.push([`${at}\t${count}\t`, line]);
      return true;
    }
    for (let i = outputs.at; i < outputs.at + count; i++) {
      const entry = outputs.entries[i] as MemoFile;
      if (entry.ident === undefined) break;
      placed.add(entry);
      this.addFile(outputs.paths[i] as string, entry);
    }
    // a file without identity is not saved, nor the package holding it
    if (paths.length - at !== count) return false;
    this.lines.push([`${at}\t${count}\t`, line]);
    return true;
  }
}

/**
 * The packages and files of `memo` a memo file records: the site files of each package whose line
 * is saved first, then the other files (those without identity left out). Against `base`, what the
 * base has as it is is left out. Also returns the packages left out because their files are not
 * as their lines say, and how many of the base's entries are in `memo` as loaded.
 */
function sectionsOf(memo: BuildMemo, base: LoadedBase | undefined) {
  const sections = new Sections(memo.files.size);
  const roots = new Map<string, boolean>();
  const leftOut: [number, string][] = [];
  for (const [index, packages] of memo.sources) {
    for (const [key, pkg] of packages) {
      const root = rootContext(pkg.context, roots);
      const asInBase =
        base !== undefined &&
        pkg instanceof LoadedPackage &&
        pkg.isBaseUnder(index) &&
        intactRun(memo.files, pkg, root) !== undefined;
      if (!asInBase && !sections.addPackage(index, key, pkg, root, memo.files)) leftOut.push([index, key]);
    }
  }
  let keptFromBase = 0;
  for (const [path, entry] of memo.files) {
    // a base entry is asked only whether it changed (its key and identity are not made)
    if (base !== undefined && entry instanceof LoadedFile && entry.isFrom(base.rows)) {
      if (!entry.forgotten) keptFromBase++;
      continue;
    }
    if (entry.ident === undefined || entry.key === "" || sections.placed.has(entry)) continue;
    sections.addFile(path, entry);
  }
  return { sections, leftOut, keptFromBase };
}

/**
 * What differs in `memo` from the base it was loaded with: the packages and files not as the base
 * has them, and what of the base it no longer holds. Undefined when that is more than a memo file
 * made against the base should hold (see DELTA_FLOOR).
 */
function changesSince(base: LoadedBase, memo: BuildMemo) {
  const { sections, leftOut: removedPackages, keptFromBase } = sectionsOf(memo, base);
  for (const [index, key] of base.packages)
    if (memo.sources.get(index)?.has(key) !== true) removedPackages.push([index, key]);
  // the base's files gone, or changed and not saved again (each kept one is in `files` once, at
  // its path; one replaced by an entry with key and identity is in the sections above)
  const removed: string[] = [];
  if (keptFromBase !== base.entries.length) {
    for (let i = 0; i < base.paths.length; i++) {
      const path = base.paths[i] as string;
      const entry = memo.files.get(path);
      const gone =
        entry === undefined ||
        (entry === base.entries[i] ? isForgotten(entry) : entry.ident === undefined || entry.key === "");
      if (gone) removed.push(path);
    }
  }
  const limit = (size: number) => Math.max(DELTA_FLOOR, size / 8);
  if (
    sections.paths.length + removed.length > limit(base.entries.length) ||
    sections.lines.length + removedPackages.length > limit(base.packages.length)
  )
    return undefined;
  return { sections, removed, removedPackages };
}
