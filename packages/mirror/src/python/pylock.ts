/**
 * PEP 751 lock files (`pylock.toml`, `pylock.<name>.toml`): read with smol-toml and checked the
 * way the standard requires (and Python's `packaging.pylock` checks). A lock that breaks a rule
 * is a data error (exit 65) naming the file and the rule.
 */
import { ExitCode, PkgError } from "@pkg/common";
import { parse as parseToml } from "smol-toml";
import { MarkerError, parseMarker } from "./markers.js";
import { isNormalizedName } from "./name.js";
import { formatVersion, parseVersion } from "./pep440.js";
import { parseSpecifierSet } from "./specifier.js";

export interface LockedFile {
  /** The file name: as recorded, else the last segment of its url or path. */
  name: string;
  url?: string;
  path?: string;
  /** Algorithm → hex digest; never empty. */
  hashes: Record<string, string>;
  size?: number;
}

export interface LockedPackage {
  /** PEP 503-normalised (a lock records nothing else). */
  name: string;
  /** Normal form; absent for a directory or VCS source that records none. */
  version?: string;
  marker?: string;
  requiresPython?: string;
  index?: string;
  wheels: LockedFile[];
  sdist?: LockedFile;
  /** Present when the package comes from a VCS, a directory or an archive (never from wheels). */
  otherSource?: "vcs" | "directory" | "archive";
}

export interface Pylock {
  lockVersion: string;
  createdBy: string;
  requiresPython?: string;
  environments?: string[];
  packages: LockedPackage[];
}

type Table = Record<string, unknown>;

/** Parses and checks a lock; `origin` names it in errors (a path). */
export function parsePylock(text: string, origin: string): Pylock {
  let doc: Table;
  try {
    doc = parseToml(text) as Table;
  } catch (error) {
    throw new PkgError(ExitCode.Data, `${origin}: not TOML: ${(error as Error).message.split("\n")[0]}`);
  }
  const fail = (where: string, what: string): never => {
    throw new PkgError(ExitCode.Data, `${origin}: ${where}: ${what}`);
  };
  const read = new Reader(fail);
  const lockVersion = read.string(doc, "lock-version", "lock-version", true) as string;
  if (!/^1(?:\.\d+)?$/.test(lockVersion))
    fail("lock-version", `${JSON.stringify(lockVersion)} is not a 1.x lock version`);
  const createdBy = read.string(doc, "created-by", "created-by", true) as string;
  const requiresPython = read.string(doc, "requires-python", "requires-python");
  if (requiresPython !== undefined && !parseSpecifierSet(requiresPython)) {
    fail("requires-python", `${JSON.stringify(requiresPython)} is not a version specifier`);
  }
  const environments = read.stringList(doc, "environments", "environments");
  for (const [i, marker] of (environments ?? []).entries()) read.marker(marker, `environments[${i}]`);
  const packageTables = read.tableList(doc, "packages", "packages", true) as Table[];
  const packages = packageTables.map((table, i) => readPackage(table, `packages[${i}]`, read));
  return {
    lockVersion,
    createdBy,
    ...(requiresPython === undefined ? {} : { requiresPython }),
    ...(environments === undefined ? {} : { environments }),
    packages,
  };
}

function readPackage(table: Table, where: string, read: Reader): LockedPackage {
  const name = read.string(table, "name", `${where}.name`, true) as string;
  if (!isNormalizedName(name))
    read.fail(`${where}.name`, `${JSON.stringify(name)} is not a normalised name (PEP 503)`);
  const versionText = read.string(table, "version", `${where}.version`);
  let version: string | undefined;
  if (versionText !== undefined) {
    const parsed = parseVersion(versionText);
    if (!parsed)
      return read.fail(`${where}.version`, `${JSON.stringify(versionText)} is not a PEP 440 version`);
    version = formatVersion(parsed);
  }
  const marker = read.string(table, "marker", `${where}.marker`);
  if (marker !== undefined) read.marker(marker, `${where}.marker`);
  const requiresPython = read.string(table, "requires-python", `${where}.requires-python`);
  if (requiresPython !== undefined && !parseSpecifierSet(requiresPython)) {
    read.fail(`${where}.requires-python`, `${JSON.stringify(requiresPython)} is not a version specifier`);
  }
  const index = read.string(table, "index", `${where}.index`);
  const wheelTables = read.tableList(table, "wheels", `${where}.wheels`);
  const wheels = (wheelTables ?? []).map((wheel, i) => readFile(wheel, `${where}.wheels[${i}]`, read));
  const sdistTable = read.table(table, "sdist", `${where}.sdist`);
  const sdist = sdistTable && readFile(sdistTable, `${where}.sdist`, read);
  const others = (["vcs", "directory", "archive"] as const).filter((key) => table[key] !== undefined);
  for (const key of others) read.table(table, key, `${where}.${key}`);
  if ((wheelTables !== undefined || sdist !== undefined) && others.length > 0) {
    read.fail(where, `${others.join(", ")} cannot be given with sdist or wheels`);
  }
  if (wheelTables === undefined && sdist === undefined && others.length !== 1) {
    read.fail(where, "exactly one of vcs, directory, archive is needed when there is no sdist or wheels");
  }
  return {
    name,
    ...(version === undefined ? {} : { version }),
    ...(marker === undefined ? {} : { marker }),
    ...(requiresPython === undefined ? {} : { requiresPython }),
    ...(index === undefined ? {} : { index }),
    wheels,
    ...(sdist === undefined ? {} : { sdist }),
    ...(others[0] === undefined ? {} : { otherSource: others[0] }),
  };
}

function readFile(table: Table, where: string, read: Reader): LockedFile {
  const url = read.string(table, "url", `${where}.url`);
  const path = read.string(table, "path", `${where}.path`);
  if (url === undefined && path === undefined) read.fail(where, "needs a url or a path");
  const recorded = read.string(table, "name", `${where}.name`);
  const name = recorded ?? lastSegment((url ?? path) as string);
  const hashesTable = read.table(table, "hashes", `${where}.hashes`, true) as Table;
  const hashes: Record<string, string> = {};
  for (const [algorithm, digest] of Object.entries(hashesTable)) {
    if (typeof digest !== "string") read.fail(`${where}.hashes.${algorithm}`, "must be a string");
    hashes[algorithm] = (digest as string).toLowerCase();
  }
  if (Object.keys(hashes).length === 0) read.fail(`${where}.hashes`, "records no hash");
  const size = table.size;
  if (size !== undefined && (typeof size !== "number" || !Number.isInteger(size) || size < 0)) {
    read.fail(`${where}.size`, "must be a non-negative integer");
  }
  return {
    name,
    ...(url === undefined ? {} : { url }),
    ...(path === undefined ? {} : { path }),
    hashes,
    ...(size === undefined ? {} : { size: size as number }),
  };
}

function lastSegment(location: string): string {
  const withoutQuery = location.replace(/[?#].*$/, "");
  return decodeURIComponent(withoutQuery.slice(withoutQuery.lastIndexOf("/") + 1));
}

/** Typed reads of TOML values that fail with the key's location. */
class Reader {
  constructor(readonly fail: (where: string, what: string) => never) {}

  string(table: Table, key: string, where: string, required = false): string | undefined {
    const value = table[key];
    if (value === undefined) return required ? this.fail(where, "is required") : undefined;
    return typeof value === "string" ? value : this.fail(where, "must be a string");
  }

  stringList(table: Table, key: string, where: string): string[] | undefined {
    const value = table[key];
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
      return this.fail(where, "must be a list of strings");
    }
    return value as string[];
  }

  table(table: Table, key: string, where: string, required = false): Table | undefined {
    const value = table[key];
    if (value === undefined) return required ? this.fail(where, "is required") : undefined;
    return isTable(value) ? value : this.fail(where, "must be a table");
  }

  tableList(table: Table, key: string, where: string, required = false): Table[] | undefined {
    const value = table[key];
    if (value === undefined) return required ? this.fail(where, "is required") : undefined;
    if (!Array.isArray(value) || !value.every(isTable)) return this.fail(where, "must be a list of tables");
    return value as Table[];
  }

  marker(text: string, where: string): void {
    try {
      parseMarker(text);
    } catch (error) {
      if (!(error instanceof MarkerError)) throw error;
      this.fail(where, `${JSON.stringify(text)} is not a PEP 508 marker`);
    }
  }
}

function isTable(value: unknown): value is Table {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
