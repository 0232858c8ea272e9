import { parseReference } from "@pkg/oci";
import { isSeq } from "yaml";
import type { Field, MapField } from "./field.js";
import { readPep440Version } from "./pep440.js";

/** `python.lock`: how a `pypi` source derives its lock per version. */
export interface PythonLock {
  universal: boolean;
  extras: string[];
  exclude: string[];
  timeout_seconds: number;
}

/** An explicit entrypoint: a console script name, for app versions in [min_version, max_version). */
export interface Entrypoint {
  name: string;
  min_version?: string;
  max_version?: string;
}

/** `auto`: only the app's own console scripts; `all`: every wheel's; a list: only those named. */
export type Entrypoints = "auto" | "all" | Entrypoint[];

export interface Python {
  version: string;
  abi: string;
  interpreter_package: string;
  /** Always filled (defaults when `lock` is absent); only `pypi` sources use it. */
  lock: PythonLock;
  entrypoints: Entrypoints;
}

export const DEFAULT_PYTHON_LOCK: PythonLock = {
  universal: true,
  extras: [],
  exclude: [],
  timeout_seconds: 300,
};

const pythonVersionPattern = /^[0-9]+\.[0-9]+(?:\.[0-9]+)?(?:(?:a|b|rc)[0-9]+)?$/;
const abiPattern = /^[a-z][a-z0-9_]*$/;
/** PEP 508 distribution and extra names. */
const namePattern = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;
/** A console script name: what `pkg exec` and PATH see, so no whitespace, separators or `=`. */
const scriptPattern = /^[^\s/\\=:]+$/;

export function readPython(field: Field): Python | undefined {
  const map = field.map();
  if (!map) return undefined;
  map.only(["version", "abi", "interpreter_package", "lock", "entrypoints"]);
  const version = map.require("version")?.matching(pythonVersionPattern, "a Python version such as 3.13.1");
  const abi = readAbi(map);
  const interpreter = readInterpreter(map);
  const lockField = map.get("lock");
  const lock = lockField.present ? readLock(lockField) : { ...DEFAULT_PYTHON_LOCK };
  const entrypointsField = map.get("entrypoints");
  const entrypoints = entrypointsField.present ? readEntrypoints(entrypointsField) : "auto";
  if (version === undefined || abi === undefined || interpreter === undefined) return undefined;
  if (lock === undefined || entrypoints === undefined) return undefined;
  return { version, abi, interpreter_package: interpreter, lock, entrypoints };
}

function readAbi(map: MapField): string | undefined {
  const field = map.require("abi");
  const abi = field?.matching(abiPattern, "an ABI tag such as cp313");
  if (field === undefined || abi === undefined) return undefined;
  // these are what a wheel may carry instead of the interpreter's ABI, never an interpreter's own
  if (abi === "abi3" || abi === "none")
    return field.fail(`"${abi}" is not an interpreter ABI; name the interpreter's, such as cp313`);
  return abi;
}

function readInterpreter(map: MapField): string | undefined {
  const field = map.require("interpreter_package");
  const text = field?.string({ nonEmpty: true });
  if (field === undefined || text === undefined) return undefined;
  let reference: ReturnType<typeof parseReference>;
  try {
    reference = parseReference(text);
  } catch (error) {
    return field.fail((error as Error).message);
  }
  if (reference.tag === undefined && reference.digest === undefined) {
    return field.fail(`${JSON.stringify(text)} names no tag or digest (for example ${text}:3.13.1)`);
  }
  return text;
}

function readLock(field: Field): PythonLock | undefined {
  const map = field.map();
  if (!map) return undefined;
  map.only(["universal", "extras", "exclude", "timeout_seconds"]);
  const lock: PythonLock = { ...DEFAULT_PYTHON_LOCK };
  let ok = true;
  const universal = map.get("universal");
  if (universal.present) {
    const value = universal.boolean();
    if (value === undefined) ok = false;
    else lock.universal = value;
  }
  for (const key of ["extras", "exclude"] as const) {
    const names = map.get(key);
    if (!names.present) continue;
    const value = readNames(names);
    if (value === undefined) ok = false;
    else lock[key] = value;
  }
  const timeout = map.get("timeout_seconds");
  if (timeout.present) {
    const value = timeout.integer({ min: 1 });
    if (value === undefined) ok = false;
    else lock.timeout_seconds = value;
  }
  return ok ? lock : undefined;
}

/** A list of PEP 508 names (extras, distributions), each once. */
function readNames(field: Field): string[] | undefined {
  const items = field.list();
  if (!items) return undefined;
  const names: string[] = [];
  for (const item of items) {
    const name = item.matching(namePattern, "a package or extra name (letters, digits, '.', '_', '-')");
    if (name === undefined) continue;
    if (names.includes(name)) item.fail(`${JSON.stringify(name)} is listed twice`);
    else names.push(name);
  }
  return names.length === items.length ? names : undefined;
}

function readEntrypoints(field: Field): Entrypoints | undefined {
  if (isSeq(field.value)) return readEntrypointList(field);
  return field.oneOf(["auto", "all"] as const);
}

function readEntrypointList(field: Field): Entrypoint[] | undefined {
  const items = field.list();
  if (!items) return undefined;
  const list: Entrypoint[] = [];
  for (const item of items) {
    const entry = readEntrypoint(item);
    if (entry === undefined) continue;
    if (list.some((e) => e.name === entry.name))
      item.fail(`entrypoint ${JSON.stringify(entry.name)} is listed twice`);
    else list.push(entry);
  }
  return list.length === items.length ? list : undefined;
}

function readEntrypoint(field: Field): Entrypoint | undefined {
  const map = field.map();
  if (!map) return undefined;
  map.only(["name", "min_version", "max_version"]);
  const name = map.require("name")?.matching(scriptPattern, "a console script name");
  const entry: Partial<Entrypoint> = {};
  let ok = name !== undefined;
  for (const key of ["min_version", "max_version"] as const) {
    const bound = map.get(key);
    if (!bound.present) continue;
    const text = readPep440Version(bound);
    if (text === undefined) ok = false;
    else entry[key] = text;
  }
  return ok && name !== undefined ? { name, ...entry } : undefined;
}
