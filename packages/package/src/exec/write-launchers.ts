import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import {
  composeEnv,
  type EnvOs,
  type EnvPackage,
  expandPlaceholders,
  packagePathDirs,
} from "./compose-env.js";
import { type LauncherTarget, launcherFileName, renderLauncher } from "./launchers.js";
import { findInPackageDirs, whyNotRunnable } from "./resolve-command.js";

/** Where a package being assembled is now, and where it will be once installed. */
export interface LauncherPlace {
  /** The package as it is now (its content directory may still be a staging one). */
  pkg: EnvPackage;
  /** The content directory it will have: paths in launchers name this one. */
  installPath: string;
  /** The entrypoints directory it will have. */
  entrypointsDir: string;
  /** Named in each launcher's comment. */
  identifier: string;
}

/**
 * Writes one launcher per entrypoint of `place.pkg` into `dir` (mode 0755). Each sets the
 * package's own (self) environment and runs its target with the entrypoint's args before the
 * user's. A target name is looked for in the self PATH's package directories now (the content is
 * immutable once installed): found, the launcher runs that file; found but not runnable, the
 * launcher fails with 65 naming it; not there, it is looked up on PATH when the launcher runs.
 * Returns the entrypoint names written.
 */
export async function writeLaunchers(place: LauncherPlace, dir: string, os: EnvOs): Promise<string[]> {
  const entrypoints = place.pkg.metadata.entrypoints ?? [];
  if (entrypoints.length === 0) return [];
  await mkdir(dir, { recursive: true });
  const final: EnvPackage = { ...place.pkg, installPath: place.installPath };
  const envNow = composeEnv(place.pkg, "self");
  const env = composeEnv(final, "self");
  for (const entrypoint of entrypoints) {
    const target = await launcherTarget(expandPlaceholders(entrypoint.target, place.pkg), envNow, place, os);
    const text = renderLauncher(
      {
        name: entrypoint.name,
        identifier: place.identifier,
        env,
        target,
        args: (entrypoint.args ?? []).map((arg) => expandPlaceholders(arg, final)),
        entrypointsDir: place.entrypointsDir,
      },
      os,
    );
    const file = join(dir, launcherFileName(entrypoint.name, os));
    await writeFile(file, text);
    await chmod(file, 0o755);
  }
  return entrypoints.map((entrypoint) => entrypoint.name);
}

async function launcherTarget(
  command: string,
  envNow: ReturnType<typeof composeEnv>,
  place: LauncherPlace,
  os: EnvOs,
): Promise<LauncherTarget> {
  const moved = (path: string) => {
    const inside = relative(place.pkg.installPath, path);
    return inside === "" || inside.startsWith("..") || inside.startsWith(sep)
      ? path
      : join(place.installPath, inside);
  };
  if (command.includes("/") || (os === "windows" && command.includes("\\"))) {
    const why = await whyNotRunnable(command, os);
    if (why === undefined) return { kind: "path", path: moved(command) };
    return { kind: "refuse", message: `${moved(command)}: the entrypoint's target is ${why}` };
  }
  const shipped = await findInPackageDirs(command, packagePathDirs(envNow, os), os);
  if (shipped.kind === "found") return { kind: "path", path: moved(shipped.path) };
  if (shipped.kind === "refused") {
    return {
      kind: "refuse",
      message: `${moved(shipped.path)}: the package ships ${command} but it is ${shipped.why}`,
    };
  }
  // no package directory holds it: the host's, looked up when the launcher runs
  return { kind: "lookup", name: command };
}
