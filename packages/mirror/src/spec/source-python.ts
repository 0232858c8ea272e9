import { isAbsolute, normalize, resolve } from "node:path";
import type { SectionContext } from "./context.js";
import type { Field, MapField } from "./field.js";
import { readHttpUrl } from "./http-url.js";

/** `source.type: pylock`: the one version recorded in a committed PEP 751 lock. */
export interface PylockSource {
  type: "pylock";
  /** Repository-relative path of the lock. */
  path: string;
  /** The app's distribution name; default the spec's `name` (filled in by `checkSourceRules`). */
  package?: string;
}

/** `source.type: pypi`: versions discovered from Simple Repository API indexes. */
export interface PypiSource {
  type: "pypi";
  /** The app's distribution name; default the spec's `name` (filled in by `checkSourceRules`). */
  package?: string;
  /** Index bases, highest priority first, each used exactly as written; default `DEFAULT_PYPI_INDEX`. */
  indexes: Array<{ url: string }>;
}

export const DEFAULT_PYPI_INDEX = "https://pypi.org/simple/";

/** A PEP 508 distribution name. */
const distributionName = /^(?:[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9])$/;

export function readPylock(map: MapField, ctx: SectionContext): PylockSource | undefined {
  const path = readLockPath(map.require("path"), ctx);
  const pkg = readPackage(map);
  if (path === undefined || pkg === null) return undefined;
  return { type: "pylock", path, ...(pkg === undefined ? {} : { package: pkg }) };
}

export function readPypi(map: MapField): PypiSource | undefined {
  const pkg = readPackage(map);
  const indexesField = map.get("indexes");
  const indexes = indexesField.present ? readIndexes(indexesField) : [{ url: DEFAULT_PYPI_INDEX }];
  if (indexes === undefined || pkg === null) return undefined;
  return { type: "pypi", ...(pkg === undefined ? {} : { package: pkg }), indexes };
}

/** The package name when given, undefined when absent, null when refused. */
function readPackage(map: MapField): string | undefined | null {
  const field = map.get("package");
  if (!field.present) return undefined;
  return field.matching(distributionName, "a Python distribution name (PEP 508)") ?? null;
}

/** The lock's path as written: relative to the repository root, inside it, naming a file there. */
function readLockPath(field: Field | undefined, ctx: SectionContext): string | undefined {
  const text = field?.string({ nonEmpty: true });
  if (field === undefined || text === undefined) return undefined;
  if (isAbsolute(text) || normalize(text).split(/[\\/]/)[0] === "..") {
    return field.fail("must be a path relative to the repository root, inside it");
  }
  if (!ctx.files.isFile(resolve(ctx.repoRoot, text))) {
    return field.fail(
      `lock file ${JSON.stringify(text)} not found (the path is relative to the repository root ${ctx.repoRoot})`,
    );
  }
  return text;
}

function readIndexes(field: Field): Array<{ url: string }> | undefined {
  const items = field.list({ nonEmpty: true });
  if (!items) return undefined;
  const indexes = items.map((item) => {
    const map = item.map();
    if (!map) return undefined;
    map.only(["url"]);
    const urlField = map.require("url");
    const url = urlField && readHttpUrl(urlField);
    return url === undefined ? undefined : { url };
  });
  return indexes.every((index): index is { url: string } => index !== undefined) ? indexes : undefined;
}
