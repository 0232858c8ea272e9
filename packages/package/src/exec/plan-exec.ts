import { join } from "node:path";
import { ExitCode, PkgError } from "@pkg/common";
import type { InstalledPackage } from "../store/installed.js";
import {
  applyEnvPlan,
  composeEnv,
  type EnvOs,
  type EnvPackage,
  type EnvView,
  packagePathDirs,
} from "./compose-env.js";
import { launcherFileName } from "./launchers.js";
import { type ResolvedCommand, resolveCommand } from "./resolve-command.js";

/** What to start: the file, its arguments, the name it is called by, and its environment. */
export interface ExecPlan {
  command: ResolvedCommand;
  args: string[];
  argv0: string;
  env: Record<string, string>;
}

/**
 * The environment `pkg` gives a command (`consumer`: what `pkg exec` gives; `self`: the
 * package's own view) on top of `base`, and the directories it looks commands up in before the
 * host's PATH.
 */
export function packageEnvironment(
  pkg: EnvPackage,
  view: EnvView,
  base: Readonly<Record<string, string | undefined>>,
  os: EnvOs,
): { env: Record<string, string>; packageDirs: string[] } {
  const plan = composeEnv(pkg, view);
  return { env: applyEnvPlan(base, plan, os), packageDirs: packagePathDirs(plan, os) };
}

/**
 * How `pkg exec` runs `command` (`[CMD, ...ARGS]`) with the package: in its consumer environment,
 * CMD resolved in the package's directories before the host's PATH (`resolveCommand`). Without a
 * command, the package's only entrypoint's launcher runs; none or several is a usage error (64).
 */
export async function planExec(
  pkg: InstalledPackage,
  command: readonly string[],
  base: Readonly<Record<string, string | undefined>>,
  os: EnvOs,
): Promise<ExecPlan> {
  const { env, packageDirs } = packageEnvironment(pkg, "consumer", base, os);
  const [name, ...args] = command;
  if (name === undefined) {
    const entrypoint = onlyEntrypoint(pkg);
    const path = join(pkg.entrypointsDir ?? join(pkg.dir, "entrypoints"), launcherFileName(entrypoint, os));
    return { command: { path, from: "package" }, args: [], argv0: entrypoint, env };
  }
  const resolved = await resolveCommand(name, packageDirs, base.PATH, os);
  return { command: resolved, args, argv0: name, env };
}

function onlyEntrypoint(pkg: InstalledPackage): string {
  const names = (pkg.metadata.entrypoints ?? []).map((entrypoint) => entrypoint.name);
  const [only] = names;
  if (only !== undefined && names.length === 1) return only;
  throw new PkgError(
    ExitCode.Usage,
    names.length === 0
      ? `${pkg.record.identifier} has no entrypoint; name the command to run after --`
      : `${pkg.record.identifier} has ${names.length} entrypoints (${names.join(", ")}); name the one to run after --`,
  );
}
