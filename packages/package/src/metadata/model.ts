/**
 * metadata.json: how a package is set up once extracted. It is the config blob of the package
 * manifest (`application/vnd.pkg.package.v1+json`), serialised by `serializeMetadata` so the same
 * model always gives the same bytes and digest.
 *
 * ```json
 * {"type":"bundle","version":1,"strip_components":1,
 *  "env":[{"key":"PATH","type":"path","value":"${installPath}/bin","required":true}],
 *  "binaries":["tool"],
 *  "entrypoints":[{"name":"tool-fmt","target":"tool","args":["fmt"]}],
 *  "dependencies":[{"identifier":"ghcr.io/acme/python:3.13@sha256:<64 hex>","name":"python"}]}
 * ```
 *
 * Values may hold two placeholders, resolved where the package is installed:
 * `${installPath}` (this package's content directory) and `${deps.<name>.installPath}` (a
 * declared dependency's). Any other `${...}` is refused. A `$schema` key is accepted for editors
 * and not kept: it would change the digest without changing the package.
 */
export interface Metadata {
  type: "bundle";
  /** Format version; 1. */
  version: 1;
  /** Leading path components dropped when the upstream archive is extracted. */
  strip_components?: number;
  env?: EnvEntry[];
  /** File names (not paths) of the package's executables: made executable when extracted, checked by `bin_scan`. */
  binaries?: string[];
  entrypoints?: Entrypoint[];
  dependencies?: Dependency[];
}

/**
 * `path` entries are prepended to the variable with the platform's separator; `constant` entries
 * replace it. Visibility says who sees the entry: `public` (default) the package's own launchers
 * and its consumers, `private` only the package's own launchers, `interface` only consumers.
 */
export interface EnvEntry {
  key: string;
  type: "path" | "constant";
  value: string;
  /** Path entries only: the directory must exist once installed. Default false. */
  required?: boolean;
  visibility?: EnvVisibility;
}

/** The metadata of a package that declares nothing: no environment, no launchers, no dependencies. */
export function defaultMetadata(): Metadata {
  return { type: "bundle", version: 1 };
}

export const ENV_VISIBILITIES = ["public", "private", "interface"] as const;
export type EnvVisibility = (typeof ENV_VISIBILITIES)[number];

/**
 * A named launcher. `target` is the command it runs: a name looked up on the package's own
 * composed PATH (`python`), or a path under a placeholder (`${installPath}/libexec/tool`); `args`
 * go before the user's arguments.
 */
export interface Entrypoint {
  name: string;
  target: string;
  args?: string[];
}

/**
 * Another package this one needs, pinned by digest: `<registry>/<repository>[:<tag>]@sha256:<hex>`
 * (the tag is informational). `name` is how placeholders refer to it, by default the last
 * component of the repository. Visibility says whose environment gets the dependency's:
 * `private` (default) the package's own launchers, `public` also its consumers, `interface` only
 * its consumers, `sealed` nobody (reached by path only).
 */
export interface Dependency {
  identifier: string;
  name?: string;
  visibility?: DependencyVisibility;
}

export const DEPENDENCY_VISIBILITIES = ["private", "public", "interface", "sealed"] as const;
export type DependencyVisibility = (typeof DEPENDENCY_VISIBILITIES)[number];
