import { constants } from "node:fs";
import { access, lstat, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { ExitCode, PkgError } from "@pkg/common";
import { type EnvOs, pathSeparator } from "./compose-env.js";

/** A command found: the file to run, and where it was found. */
export interface ResolvedCommand {
  path: string;
  /** `package`: in a package directory; `host`: on the host's PATH; `given`: a path was named. */
  from: "package" | "host" | "given";
}

/**
 * Finds the file `name` runs. A name with a path separator is taken as given. Otherwise the
 * package directories come first, in order: the first that holds the name decides, and if the
 * file there is not executable (or is a broken link) that is a data error (exit 65) naming it,
 * never a fall-through to a host binary of the same name (a package shipping `bin/tool` mode
 * 0644 would otherwise test or run the host's `tool`). Only a name no package directory holds is
 * looked up on `hostPath` (executable files only, as the shell does); not found there, exit 69.
 */
export async function resolveCommand(
  name: string,
  packageDirs: readonly string[],
  hostPath: string | undefined,
  os: EnvOs,
): Promise<ResolvedCommand> {
  if (name === "") throw new PkgError(ExitCode.Usage, "the command to run is empty");
  if (name.includes("/") || (os === "windows" && name.includes("\\"))) return { path: name, from: "given" };
  const shipped = await findInPackageDirs(name, packageDirs, os);
  if (shipped.kind === "found") return { path: shipped.path, from: "package" };
  if (shipped.kind === "refused") {
    throw new PkgError(
      ExitCode.Data,
      `${shipped.path}: the package ships ${name} but it is ${shipped.why}; not running a ${name} from the host's PATH instead`,
    );
  }
  const names = candidateNames(name, os);
  const hostDirs = (hostPath ?? "").split(pathSeparator(os)).filter((dir) => dir !== "");
  for (const dir of hostDirs) {
    for (const candidate of names) {
      const path = join(dir, candidate);
      if ((await judge(path, os)).kind === "executable") return { path, from: "host" };
    }
  }
  throw new PkgError(ExitCode.Unavailable, `${name}: not found in the package nor on PATH`);
}

const shadowChecks = new Map<string, Promise<void>>();

/**
 * Refuses (exit 65, naming the file) a package whose PATH directories hold a file that is not
 * executable while the host's PATH has an executable of the same name. Whatever starts a command
 * by name in the package's environment (`bash -c tool`, the command form of the CI test legs, a
 * script calling `tool`) would skip the package's file and run the host's: a false green. A test
 * of a package checks this before running anything; checked once per set of directories and PATH.
 */
export function refuseShadowedHostCommands(
  packageDirs: readonly string[],
  hostPath: string | undefined,
  os: EnvOs,
): Promise<void> {
  if (os === "windows") return Promise.resolve();
  const key = JSON.stringify([packageDirs, hostPath]);
  let check = shadowChecks.get(key);
  if (check === undefined) {
    check = findShadowedHostCommand(packageDirs, hostPath, os).then((found) => {
      if (found === undefined) return;
      throw new PkgError(
        ExitCode.Data,
        `${found.path}: the package ships ${found.name} but it is ${found.why}; a shell in the package's environment would run ${found.host} instead`,
      );
    });
    shadowChecks.set(key, check);
  }
  return check;
}

async function findShadowedHostCommand(
  packageDirs: readonly string[],
  hostPath: string | undefined,
  os: EnvOs,
): Promise<{ name: string; path: string; why: string; host: string } | undefined> {
  const hostDirs = (hostPath ?? "").split(pathSeparator(os)).filter((dir) => dir !== "");
  for (const dir of packageDirs) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names.sort()) {
      const path = join(dir, name);
      const verdict = await judge(path, os);
      if (verdict.kind !== "refused") continue;
      // the first package directory holding the name decides, as for a lookup
      if ((await findInPackageDirs(name, packageDirs, os)).kind !== "refused") continue;
      for (const hostDir of hostDirs) {
        const host = join(hostDir, name);
        if ((await judge(host, os)).kind === "executable") return { name, path, why: verdict.why, host };
      }
    }
  }
  return undefined;
}

/** What the package directories hold under a command name: the first of them holding it decides. */
export type PackageLookup =
  | { kind: "found"; path: string }
  | { kind: "refused"; path: string; why: string }
  | { kind: "absent" };

/**
 * Looks `name` up in `packageDirs` in order. The first directory holding the name (a directory of
 * that name aside) decides: `found` when the file runs, else `refused` with why (`not executable
 * (mode 0644)`, `a broken link`, ...); `absent` when none holds it.
 */
export async function findInPackageDirs(
  name: string,
  packageDirs: readonly string[],
  os: EnvOs,
): Promise<PackageLookup> {
  const names = candidateNames(name, os);
  for (const dir of packageDirs) {
    for (const candidate of names) {
      const path = join(dir, candidate);
      const verdict = await judge(path, os);
      if (verdict.kind === "absent" || verdict.kind === "directory") continue;
      if (verdict.kind === "executable") return { kind: "found", path };
      return { kind: "refused", path, why: verdict.why };
    }
  }
  return { kind: "absent" };
}

/**
 * Why the file at `path` cannot be run (`not executable (mode 0644)`, `missing`, ...), or
 * undefined when it can: for a command named by its path, such as an entrypoint's
 * `${installPath}/libexec/tool`.
 */
export async function whyNotRunnable(path: string, os: EnvOs): Promise<string | undefined> {
  const verdict = await judge(path, os);
  if (verdict.kind === "executable") return undefined;
  if (verdict.kind === "refused") return verdict.why;
  return verdict.kind === "absent" ? "missing" : "a directory";
}

/** What a path holds, for running it: nothing, a directory, an executable, or a file that cannot run and why. */
type Verdict =
  | { kind: "absent" }
  | { kind: "directory" }
  | { kind: "executable" }
  | { kind: "refused"; why: string };

async function judge(path: string, os: EnvOs): Promise<Verdict> {
  const link = await lstat(path).catch(() => undefined);
  if (link === undefined) return { kind: "absent" };
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) return { kind: "refused", why: "a broken link" };
  if (info.isDirectory()) return { kind: "directory" };
  if (!info.isFile()) return { kind: "refused", why: "not a regular file" };
  if (os === "windows") return { kind: "executable" };
  const runnable = await access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
  if (runnable) return { kind: "executable" };
  return {
    kind: "refused",
    why: `not executable (mode ${(info.mode & 0o7777).toString(8).padStart(4, "0")})`,
  };
}

/** The file names `name` may have: itself, and on Windows with each PATHEXT extension first. */
function candidateNames(name: string, os: EnvOs): string[] {
  if (os !== "windows" || /\.[^.\\/]+$/.test(name)) return [name];
  const extensions = (process.env.PATHEXT ?? ".COM;.EXE;.BAT;.CMD").split(";").filter((e) => e !== "");
  return [...extensions.map((extension) => `${name}${extension.toLowerCase()}`), name];
}
