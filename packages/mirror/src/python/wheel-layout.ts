/**
 * Where a wheel's files land in its environment-package layer (PEP 427 / PEP 376 RECORD), without
 * reading anything: the root and `.data/purelib|platlib` under `lib/site-packages/`, `.data/scripts`
 * under `bin/` (executable), `.data/headers` under `include/<name>/`, `.data/data` at the content
 * root. Also the RECORD rules a wheel must keep (every file listed with a sha256/384/512 and its
 * size, nothing listed that is absent), its `[console_scripts]`, and the overlap check between the
 * layers of one package. Every broken rule is exit 65 naming the wheel.
 */
import { ExitCode, PkgError } from "@pkg/common";
import { normalizeName } from "./name.js";

export const SITE_PACKAGES = "lib/site-packages";
export const SCRIPTS_DIR = "bin";

export interface RecordEntry {
  /** `sha256`, `sha384` or `sha512`; absent for RECORD itself and its signatures. */
  algorithm?: RecordAlgorithm;
  /** The digest as RECORD writes it: urlsafe base64 without padding. */
  digest?: string;
  size?: number;
}

export type RecordAlgorithm = "sha256" | "sha384" | "sha512";
const ALGORITHMS: readonly string[] = ["sha256", "sha384", "sha512"];

export interface Placement {
  /** Path inside the wheel. */
  from: string;
  /** Path inside the layer, relative to the content root. */
  to: string;
  executable: boolean;
}

export interface WheelLayout {
  /** `<name>-<version>.dist-info`. */
  distInfo: string;
  placements: Placement[];
}

function fail(wheel: string, message: string): never {
  throw new PkgError(ExitCode.Data, `${wheel}: ${message}`);
}

/** One CSV record (RFC 4180 quoting, as Python's csv module writes it). */
function csvFields(line: string): string[] | undefined {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    let field = "";
    if (line[i] === '"') {
      i++;
      for (;;) {
        if (i >= line.length) return undefined;
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += line[i];
        i++;
      }
      if (i < line.length && line[i] !== ",") return undefined;
    } else {
      const end = line.indexOf(",", i);
      field = line.slice(i, end === -1 ? line.length : end);
      i = end === -1 ? line.length : end;
    }
    fields.push(field);
    if (i >= line.length) return fields;
    i++; // the comma
  }
}

/** Parses RECORD: `path,algorithm=digest,size` lines; a malformed line or a repeated path is exit 65. */
export function parseRecord(text: string, wheel: string): Map<string, RecordEntry> {
  const entries = new Map<string, RecordEntry>();
  text.split(/\r?\n/).forEach((line, n) => {
    if (line === "") return;
    const fields = csvFields(line);
    if (fields?.length !== 3 || fields[0] === "") {
      fail(wheel, `RECORD line ${n + 1} is not path,hash,size`);
    }
    const [path, hash, size] = fields as [string, string, string];
    if (entries.has(path)) fail(wheel, `RECORD lists ${path} twice`);
    const entry: RecordEntry = {};
    if (hash !== "") {
      const eq = hash.indexOf("=");
      const algorithm = hash.slice(0, eq);
      const digest = hash.slice(eq + 1);
      if (eq === -1 || !/^[A-Za-z0-9_-]+$/.test(digest)) {
        fail(wheel, `RECORD line ${n + 1}: ${JSON.stringify(hash)} is not algorithm=digest`);
      }
      if (!ALGORITHMS.includes(algorithm)) {
        fail(wheel, `RECORD hashes ${path} with ${algorithm}; sha256, sha384 or sha512 is required`);
      }
      entry.algorithm = algorithm as RecordAlgorithm;
      entry.digest = digest;
    }
    if (size !== "") {
      if (!/^[0-9]+$/.test(size))
        fail(wheel, `RECORD line ${n + 1}: size ${JSON.stringify(size)} is not a number`);
      entry.size = Number(size);
    }
    entries.set(path, entry);
  });
  return entries;
}

/** The wheel's one `<name>-<version>.dist-info` directory, named for the wheel's distribution. */
export function findDistInfo(wheel: string, distribution: string, files: readonly string[]): string {
  const dirs = [...new Set(files.map((f) => f.split("/")[0] as string))].filter(
    (top) => top.endsWith(".dist-info") && files.some((f) => f.startsWith(`${top}/`)),
  );
  if (dirs.length !== 1) {
    fail(
      wheel,
      `has ${dirs.length === 0 ? "no" : dirs.length} .dist-info directories; a wheel has exactly one`,
    );
  }
  const dir = dirs[0] as string;
  const stem = dir.slice(0, -".dist-info".length);
  const dash = stem.lastIndexOf("-");
  if (dash <= 0 || normalizeName(stem.slice(0, dash)) !== normalizeName(distribution)) {
    fail(wheel, `its ${dir} is not for ${distribution}`);
  }
  return dir;
}

const RECORD_UNHASHED = ["RECORD", "RECORD.jws", "RECORD.p7s"];

/**
 * Each file of the wheel (paths with `/`, directories left out) and where it goes. Files not
 * listed in RECORD with a hash, RECORD entries the wheel lacks, unknown `.data` schemes and paths
 * that climb out (`..`, absolute) are exit 65.
 */
export function planWheelLayout(
  wheel: string,
  distribution: string,
  files: readonly string[],
  record: ReadonlyMap<string, RecordEntry>,
): WheelLayout {
  const distInfo = findDistInfo(wheel, distribution, files);
  const dataDir = `${distInfo.slice(0, -".dist-info".length)}.data`;
  const present = new Set(files);
  for (const path of record.keys()) {
    if (!present.has(path)) fail(wheel, `RECORD lists ${path}, which the wheel does not hold`);
  }
  const placements: Placement[] = [];
  for (const from of [...files].sort()) {
    if (
      from.startsWith("/") ||
      from.split("/").some((part) => part === ".." || part === "." || part === "")
    ) {
      fail(wheel, `${JSON.stringify(from)} is not a relative path inside the wheel`);
    }
    const unhashed = RECORD_UNHASHED.some((name) => from === `${distInfo}/${name}`);
    if (!unhashed && record.get(from)?.digest === undefined) {
      fail(wheel, `${from} is not listed in RECORD with a hash`);
    }
    placements.push(place(wheel, from, dataDir, distribution));
  }
  return { distInfo, placements };
}

function place(wheel: string, from: string, dataDir: string, distribution: string): Placement {
  if (!from.startsWith(`${dataDir}/`)) return { from, to: `${SITE_PACKAGES}/${from}`, executable: false };
  const rest = from.slice(dataDir.length + 1);
  const slash = rest.indexOf("/");
  const scheme = rest.slice(0, slash);
  const path = rest.slice(slash + 1);
  if (slash === -1 || path === "") fail(wheel, `${from} is outside a ${dataDir} scheme directory`);
  switch (scheme) {
    case "purelib":
    case "platlib":
      return { from, to: `${SITE_PACKAGES}/${path}`, executable: false };
    case "scripts":
      return { from, to: `${SCRIPTS_DIR}/${path}`, executable: true };
    case "headers":
      return { from, to: `include/${normalizeName(distribution)}/${path}`, executable: false };
    case "data":
      return { from, to: path, executable: false };
    default:
      return fail(wheel, `${from}: unknown .data scheme ${JSON.stringify(scheme)}`);
  }
}

/** A file's bytes against its RECORD entry (hash, and size when recorded); a mismatch is exit 65. */
export function checkRecorded(
  wheel: string,
  path: string,
  entry: RecordEntry,
  digestB64: string,
  size: number,
): void {
  if (entry.digest !== undefined && entry.digest.replace(/=+$/, "") !== digestB64) {
    fail(wheel, `${path}: ${entry.algorithm} does not match RECORD (the wheel was altered)`);
  }
  if (entry.size !== undefined && entry.size !== size) {
    fail(wheel, `${path}: ${size} bytes, RECORD says ${entry.size}`);
  }
}

export interface ConsoleScript {
  name: string;
  /** `module:attr.attr`. */
  module: string;
  attribute: string;
  /** Extras the script is gated on (`blackd = blackd:main [d]`). */
  extras: string[];
}

/** The `[console_scripts]` of an `entry_points.txt`; a malformed line there is exit 65. */
export function parseConsoleScripts(text: string, wheel: string): ConsoleScript[] {
  const scripts: ConsoleScript[] = [];
  let section: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      section = (header[1] as string).trim();
      continue;
    }
    if (section !== "console_scripts") continue;
    const m =
      /^([^=\s][^=]*?)\s*=\s*([A-Za-z_][\w.]*)\s*(?::\s*([A-Za-z_][\w.]*))?\s*(?:\[([^\]]*)\])?$/.exec(line);
    if (!m) fail(wheel, `entry_points.txt: ${JSON.stringify(line)} is not name = module:attribute`);
    scripts.push({
      name: m[1] as string,
      module: m[2] as string,
      attribute: m[3] ?? "",
      extras: (m[4] ?? "")
        .split(",")
        .map((e) => e.trim())
        .filter((e) => e !== ""),
    });
  }
  return scripts;
}

/**
 * The layers of one package must not overlap: a file installed by two wheels, or a file one wheel
 * installs where another needs a directory, is exit 65 naming both wheels.
 */
export function checkNoOverlap(layers: ReadonlyArray<{ wheel: string; paths: readonly string[] }>): void {
  const files = new Map<string, string>();
  for (const layer of layers) {
    for (const path of layer.paths) {
      const owner = files.get(path);
      if (owner !== undefined && owner !== layer.wheel) {
        fail(layer.wheel, `installs ${path}, which ${owner} installs too`);
      }
      files.set(path, layer.wheel);
    }
  }
  for (const layer of layers) {
    for (const path of layer.paths) {
      const parts = path.split("/");
      for (let i = 1; i < parts.length; i++) {
        const dir = parts.slice(0, i).join("/");
        const owner = files.get(dir);
        if (owner !== undefined) fail(layer.wheel, `installs ${path} under ${dir}, a file ${owner} installs`);
      }
    }
  }
}
