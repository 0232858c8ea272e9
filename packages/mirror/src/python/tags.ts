/**
 * PEP 425 compatibility tags and PEP 427 wheel file names: what a wheel declares, and the ordered
 * tags a CPython target accepts (best first).
 */
import { normalizeName } from "./name.js";
import { formatVersion, parseVersion } from "./pep440.js";

export interface WheelTag {
  interpreter: string;
  abi: string;
  platform: string;
}

export interface WheelFilename {
  /** PEP 503-normalised project name. */
  name: string;
  /** The version in normal form. */
  version: string;
  /** The build tag: its leading number and the rest; absent without one. */
  build?: [number, string];
  /** Every tag of the (possibly compressed) tag set. */
  tags: WheelTag[];
}

export function formatTag(tag: WheelTag): string {
  return `${tag.interpreter}-${tag.abi}-${tag.platform}`;
}

/** Expands `py2.py3-none-any` into its tags; undefined when it is not three non-empty fields. */
export function parseTagSet(text: string): WheelTag[] | undefined {
  const fields = text.toLowerCase().split("-");
  if (fields.length !== 3) return undefined;
  const [interpreters, abis, platforms] = fields.map((field) => field.split(".")) as [
    string[],
    string[],
    string[],
  ];
  if ([...interpreters, ...abis, ...platforms].some((part) => part === "")) return undefined;
  if (!interpreters.every((part) => /^[a-z_][a-z0-9_]*$/.test(part))) return undefined;
  const tags: WheelTag[] = [];
  for (const interpreter of interpreters) {
    for (const abi of abis) {
      for (const platform of platforms) tags.push({ interpreter, abi, platform });
    }
  }
  return tags;
}

/** Parses `{name}-{version}(-{build})?-{python}-{abi}-{platform}.whl`; undefined when it is not one. */
export function parseWheelFilename(filename: string): WheelFilename | undefined {
  if (!filename.endsWith(".whl")) return undefined;
  const stem = filename.slice(0, -4);
  const parts = stem.split("-");
  if (parts.length !== 5 && parts.length !== 6) return undefined;
  const [namePart, versionPart] = parts as [string, string];
  if (namePart.includes("__") || !/^[\p{L}\p{N}_.]+$/u.test(namePart)) return undefined;
  const version = parseVersion(versionPart);
  if (!version) return undefined;
  let build: [number, string] | undefined;
  if (parts.length === 6) {
    const m = /^(\d+)(.*)$/s.exec(parts[2] as string);
    if (!m) return undefined;
    build = [Number(m[1]), m[2] as string];
  }
  const tags = parseTagSet(parts.slice(-3).join("-"));
  if (!tags) return undefined;
  return {
    name: normalizeName(namePart),
    version: formatVersion(version),
    ...(build ? { build } : {}),
    tags,
  };
}

/**
 * The tags CPython `major.minor` with ABI `abi` accepts on `platforms` (each a platform tag, best
 * first), best first: the interpreter's own ABI, then `abi3` (of this and every older minor
 * release that has it) and `none`, then pure-Python tags of this and older releases, platform
 * ones before `any`.
 */
export function supportedTags(python: [number, number], abi: string, platforms: readonly string[]): string[] {
  const [major, minor] = python;
  const interpreter = `cp${major}${minor}`;
  const tags: string[] = [];
  const each = (interp: string, abiTag: string, platformList: readonly string[]): void => {
    for (const platform of platformList) tags.push(`${interp}-${abiTag}-${platform}`);
  };
  const abi3 = major === 3 && minor >= 2;
  if (abi !== "abi3" && abi !== "none") each(interpreter, abi, platforms);
  if (abi3) each(interpreter, "abi3", platforms);
  each(interpreter, "none", platforms);
  if (abi3) for (let m = minor - 1; m >= 2; m--) each(`cp${major}${m}`, "abi3", platforms);
  const pure = [`py${major}${minor}`, `py${major}`];
  for (let m = minor - 1; m >= 0; m--) pure.push(`py${major}${m}`);
  for (const py of pure) each(py, "none", platforms);
  each(interpreter, "none", ["any"]);
  for (const py of pure) each(py, "none", ["any"]);
  return tags;
}
