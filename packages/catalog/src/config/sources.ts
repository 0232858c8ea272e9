import { isAbsolute, resolve } from "node:path";
import { ConfigError } from "./errors.js";
import {
  expectArray,
  expectObject,
  type JsonObject,
  optionalBoolean,
  optionalString,
  rejectUnknownKeys,
  requiredString,
} from "./json-value.js";
import { childPath, itemPath } from "./key-path.js";
import { containedPath, isInside } from "./paths.js";
import { closestKey } from "./suggest.js";
import type { SourceEntry } from "./types.js";
import { checkGitRemote, checkOwnerUrl, checkSourceUrl } from "./urls.js";

const DISCRIMINANTS = ["path", "url", "git"] as const;
type SourceKind = (typeof DISCRIMINANTS)[number];

const COMMON_KEYS = ["label", "root", "default", "excludeFromAll", "ownerUrl"];
/** Each variant is a closed key set: the common keys plus its own. */
const VARIANT_KEYS: Record<SourceKind, readonly string[]> = {
  path: [...COMMON_KEYS, "path"],
  url: [...COMMON_KEYS, "url"],
  git: [...COMMON_KEYS, "git", "ref", "dir"],
};

function sourceKind(entry: JsonObject, path: string): SourceKind {
  const present = DISCRIMINANTS.filter((key) => Object.hasOwn(entry, key));
  const [kind] = present;
  if (present.length === 1 && kind !== undefined) return kind;
  let detail = `it has ${present.join(" and ")}`;
  if (present.length === 0) {
    const misspelt = Object.keys(entry)
      .filter((key) => !COMMON_KEYS.includes(key))
      .map((key) => [key, closestKey(key, DISCRIMINANTS)] as const)
      .find(([, guess]) => guess !== undefined);
    detail = misspelt ? `it has none (did you mean "${misspelt[1]}" for "${misspelt[0]}"?)` : "it has none";
  }
  throw new ConfigError(
    "SOURCE_DISCRIMINANT",
    `${path} must have exactly one of path, url, git; ${detail}`,
    path,
  );
}

/** An explicit label is a public index name: the first segment of its package names. */
function optionalLabel(entry: JsonObject, path: string): string | undefined {
  const label = optionalString(entry, "label", path);
  if (label?.includes("/")) {
    const labelPath = childPath(path, "label");
    throw new ConfigError(
      "INVALID_TYPE",
      `${labelPath} must be an index name without "/", not ${JSON.stringify(label)}`,
      labelPath,
    );
  }
  return label;
}

function parseEntry(value: unknown, index: number, dir: string, parent: string): SourceEntry {
  const path = itemPath(parent, index);
  const entry = expectObject(value, path);
  const kind = sourceKind(entry, path);
  rejectUnknownKeys(entry, VARIANT_KEYS[kind], path, ` of a ${kind} source`);
  const common = {
    index,
    label: optionalLabel(entry, path),
    root: optionalBoolean(entry, "root", path),
    default: optionalBoolean(entry, "default", path),
    excludeFromAll: optionalBoolean(entry, "excludeFromAll", path),
    ownerUrl: optionalUrl(entry, "ownerUrl", path, checkOwnerUrl),
  };
  const raw = requiredString(entry, kind, path);
  const at = childPath(path, kind);
  const parsed: SourceEntry =
    kind === "path"
      ? { ...common, kind, path: containedPath(dir, raw, at), rawPath: raw }
      : kind === "url"
        ? { ...common, kind, url: checkSourceUrl(raw, at) }
        : {
            ...common,
            kind,
            git: checkGitRemote(raw, at),
            ref: optionalString(entry, "ref", path),
            dir: checkoutDir(optionalString(entry, "dir", path), childPath(path, "dir")),
          };
  return withoutUndefined(parsed);
}

/** A git source's `dir`, judged by its text (the clone is not made at load): relative, and not
 *  climbing out of the checkout. Its real path is checked again after the clone. */
function checkoutDir(raw: string | undefined, at: string): string | undefined {
  if (raw === undefined) return undefined;
  const checkout = "/checkout";
  if (isAbsolute(raw) || !isInside(checkout, resolve(checkout, raw))) {
    const why = isAbsolute(raw) ? "is absolute" : "climbs out of it";
    throw new ConfigError(
      "PATH_ESCAPE",
      `${at} ${JSON.stringify(raw)} must name a directory inside the checkout, and it ${why}`,
      at,
    );
  }
  return raw;
}

function optionalUrl(
  entry: JsonObject,
  key: string,
  path: string,
  check: (raw: string, path: string) => string,
): string | undefined {
  const raw = optionalString(entry, key, path);
  return raw === undefined ? undefined : check(raw, childPath(path, key));
}

/** Absent keys stay absent in the result, as they were in the file. */
function withoutUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) {
    if (value[key] === undefined) delete value[key];
  }
  return value;
}

/** Which earlier entry already claimed a once-only flag or a label. */
function conflict(
  code: "MULTIPLE_ROOT" | "MULTIPLE_DEFAULT" | "LABEL_CONFLICT",
  path: string,
  message: string,
) {
  return new ConfigError(code, `${path} ${message}`, path);
}

/** `sources[]`: at least one entry, each one variant, one root and one default at most,
 *  explicit labels unique. */
export function parseSources(value: unknown, dir: string, path: string): SourceEntry[] {
  const items = expectArray(value, path);
  if (items.length === 0)
    throw new ConfigError("EMPTY_SOURCES", `${path} must list at least one source`, path);
  const entries: SourceEntry[] = [];
  for (const [index, item] of items.entries()) {
    const entry = parseEntry(item, index, dir, path);
    const at = itemPath(path, index);
    const root = entries.find((e) => e.root === true);
    if (entry.root === true && root) {
      throw conflict(
        "MULTIPLE_ROOT",
        childPath(at, "root"),
        `is true, but ${itemPath(path, root.index)} is already the root source`,
      );
    }
    const chosen = entries.find((e) => e.default === true);
    if (entry.default === true && chosen) {
      throw conflict(
        "MULTIPLE_DEFAULT",
        childPath(at, "default"),
        `is true, but ${itemPath(path, chosen.index)} is already the default`,
      );
    }
    const twin = entries.find((e) => e.label !== undefined && e.label === entry.label);
    if (twin) {
      throw conflict(
        "LABEL_CONFLICT",
        childPath(at, "label"),
        `${JSON.stringify(entry.label)} is already the label of ${itemPath(path, twin.index)}`,
      );
    }
    entries.push(entry);
  }
  return entries;
}
