import { constants, type Stats } from "node:fs";
import { access, realpath, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { ConfigError } from "./errors.js";
import { isInside, type NamedPath, type PathKind } from "./paths.js";

/* What the config's paths name on disk: css and brand.logo a readable file, docs and publicDir a
 * readable directory, and every path (these and the path sources) inside the config directory by
 * its real path too, so a symlink cannot lead out of it. */

function errnoOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}

/** `css "x.css" resolves to /site/x.css`: the key, the raw and the resolved path. */
function named({ keyPath, raw, resolved }: NamedPath): string {
  return `${keyPath} ${JSON.stringify(raw)} resolves to ${resolved}`;
}

function unreadable(path: NamedPath, code: string): ConfigError {
  return new ConfigError("READ_ERROR", `${named(path)}, which cannot be read (${code})`, path.keyPath);
}

function describeKind(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFile()) return "a file";
  return "neither a file nor a directory";
}

/** Exists (MISSING_FILE when not), is of `kind` and readable (READ_ERROR when not). */
async function checkExists(path: NamedPath, kind: PathKind): Promise<void> {
  let stats: Stats;
  try {
    stats = await stat(path.resolved);
  } catch (error) {
    const code = errnoOf(error);
    if (code === "ENOENT") {
      throw new ConfigError("MISSING_FILE", `${named(path)}, which does not exist`, path.keyPath);
    }
    throw unreadable(path, code);
  }
  const right = kind === "file" ? stats.isFile() : stats.isDirectory();
  if (!right) {
    throw new ConfigError(
      "READ_ERROR",
      `${named(path)}, which is ${describeKind(stats)}, not a ${kind}`,
      path.keyPath,
    );
  }
  const mode = kind === "file" ? constants.R_OK : constants.R_OK | constants.X_OK;
  await access(path.resolved, mode).catch((error: unknown) => {
    throw unreadable(path, errnoOf(error));
  });
}

/** The real path of `path`; for a path that does not exist (yet), the real path of its nearest
 *  existing ancestor with the rest appended, so a missing path below a link is judged too. */
async function realPathOf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    const code = errnoOf(error);
    const parent = dirname(path);
    if ((code !== "ENOENT" && code !== "ENOTDIR") || parent === path) throw error;
    return join(await realPathOf(parent), basename(path));
  }
}

/** Checks every named path in order; throws the first ConfigError met. `dir` is the config's
 *  directory (it exists: the config file was read from it). */
export async function checkNamedPaths(dir: string, paths: readonly NamedPath[]): Promise<void> {
  const realDir = await realpath(dir);
  const shownDir = realDir === dir ? dir : `${dir} (real path ${realDir})`;
  for (const path of paths) {
    if (path.kind !== undefined) await checkExists(path, path.kind);
    let real: string;
    try {
      real = await realPathOf(path.resolved);
    } catch (error) {
      throw unreadable(path, errnoOf(error));
    }
    if (!isInside(realDir, real)) {
      throw new ConfigError(
        "PATH_ESCAPE",
        `${named(path)}, whose real path ${real} is outside the config directory ${shownDir}`,
        path.keyPath,
      );
    }
  }
}
