import { dataError } from "@pkg/common";
import { dependencyName } from "../metadata/dependencies.js";
import type { DependencyVisibility, EnvVisibility, Metadata } from "../metadata/model.js";

/**
 * Who an environment is for: `self` is the package's own launchers (its public and private
 * entries, and the consumer environment of its private and public dependencies); `consumer` is
 * whoever uses the package (`pkg exec`): its public and interface entries, its entrypoint
 * launchers, and the consumer environment of its public and interface dependencies.
 */
export type EnvView = "self" | "consumer";

/** The operating system family an environment is composed for: it decides the path separator. */
export type EnvOs = "unix" | "windows";

/** A package as environment composition sees it: its metadata, where it is, and its dependencies'. */
export interface EnvPackage {
  metadata: Metadata;
  /** What `${installPath}` stands for: the package's content directory. */
  installPath: string;
  /** The directory of the package's entrypoint launchers, when it has any: first on its consumers' PATH. */
  entrypointsDir?: string;
  /** Every declared dependency, installed, by its name (`dependencyName`). */
  dependencies: ReadonlyMap<string, EnvPackage>;
}

/**
 * What to do to an environment: set the `constants` (replacing the inherited value), then put
 * the `paths` of each variable in front of its value, first entry first.
 */
export interface EnvPlan {
  constants: ReadonlyArray<{ key: string; value: string }>;
  paths: ReadonlyArray<{ key: string; values: readonly string[] }>;
}

const entryViews: Record<EnvView, ReadonlySet<EnvVisibility>> = {
  self: new Set(["public", "private"]),
  consumer: new Set(["public", "interface"]),
};

const dependencyViews: Record<EnvView, ReadonlySet<DependencyVisibility>> = {
  self: new Set(["private", "public"]),
  consumer: new Set(["public", "interface"]),
};

interface Contribution {
  key: string;
  type: "path" | "constant";
  value: string;
}

/**
 * The environment `pkg` of `view` gets, as a plan (pure: no file is read). Precedence: the
 * package's own entries in declared order (for a consumer, its entrypoints directory before
 * them), then each visible dependency's consumer environment in declared order, depth first. A
 * path entry seen before is not repeated; the first constant of a variable wins; placeholders are
 * expanded against the package each entry belongs to.
 */
export function composeEnv(pkg: EnvPackage, view: EnvView): EnvPlan {
  const constants = new Map<string, string>();
  const paths = new Map<string, string[]>();
  for (const { key, type, value } of contributions(pkg, view, [])) {
    if (type === "constant") {
      if (!constants.has(key)) constants.set(key, value);
      continue;
    }
    const values = paths.get(key) ?? [];
    if (!values.includes(value)) values.push(value);
    paths.set(key, values);
  }
  return {
    constants: [...constants].map(([key, value]) => ({ key, value })),
    paths: [...paths].map(([key, values]) => ({ key, values })),
  };
}

function contributions(pkg: EnvPackage, view: EnvView, chain: readonly EnvPackage[]): Contribution[] {
  if (chain.includes(pkg)) throw dataError(`${pkg.installPath}: dependencies form a cycle`);
  const out: Contribution[] = [];
  if (view === "consumer" && pkg.entrypointsDir !== undefined)
    out.push({ key: "PATH", type: "path", value: pkg.entrypointsDir });
  for (const entry of pkg.metadata.env ?? []) {
    if (!entryViews[view].has(entry.visibility ?? "public")) continue;
    out.push({ key: entry.key, type: entry.type, value: expandPlaceholders(entry.value, pkg) });
  }
  for (const dependency of pkg.metadata.dependencies ?? []) {
    if (!dependencyViews[view].has(dependency.visibility ?? "private")) continue;
    out.push(
      ...contributions(installedDependency(pkg, dependencyName(dependency)), "consumer", [...chain, pkg]),
    );
  }
  return out;
}

function installedDependency(pkg: EnvPackage, name: string): EnvPackage {
  const dependency = pkg.dependencies.get(name);
  if (dependency === undefined) throw dataError(`${pkg.installPath}: dependency "${name}" is not installed`);
  return dependency;
}

/**
 * `value` with `${installPath}` replaced by the package's content directory and
 * `${deps.<name>.installPath}` by that dependency's; any other placeholder is a data error (65).
 */
export function expandPlaceholders(value: string, pkg: EnvPackage): string {
  return value.replace(/\$\{([^}]*)\}/g, (_, name: string) => {
    if (name === "installPath") return pkg.installPath;
    const dependency = /^deps\.(.+)\.installPath$/.exec(name)?.[1];
    if (dependency === undefined) throw dataError(`${pkg.installPath}: unknown placeholder \${${name}}`);
    return installedDependency(pkg, dependency).installPath;
  });
}

/** `:` between the directories of a path variable, `;` on Windows. */
export function pathSeparator(os: EnvOs): string {
  return os === "windows" ? ";" : ":";
}

/** The OS family of the machine this runs on. */
export function hostEnvOs(): EnvOs {
  return process.platform === "win32" ? "windows" : "unix";
}

/**
 * `base` with `plan` applied (a new object; pure). A path variable keeps its inherited (or
 * constant) value after its new directories; an empty value adds no trailing separator (which
 * would put the working directory on it). Windows names variables without regard to case.
 */
export function applyEnvPlan(
  base: Readonly<Record<string, string | undefined>>,
  plan: EnvPlan,
  os: EnvOs,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) if (value !== undefined) env[key] = value;
  const keyOf = (key: string): string =>
    os === "windows" ? (Object.keys(env).find((k) => k.toUpperCase() === key.toUpperCase()) ?? key) : key;
  for (const { key, value } of plan.constants) env[keyOf(key)] = value;
  for (const { key, values } of plan.paths) {
    const name = keyOf(key);
    const inherited = env[name];
    env[name] = [...values, ...(inherited ? [inherited] : [])].join(pathSeparator(os));
  }
  return env;
}

/** The directories `plan` puts on PATH, in order: where a command is looked for before the host's PATH. */
export function packagePathDirs(plan: EnvPlan, os: EnvOs): string[] {
  const match = (key: string) => (os === "windows" ? key.toUpperCase() === "PATH" : key === "PATH");
  return plan.paths.filter((p) => match(p.key)).flatMap((p) => [...p.values]);
}
