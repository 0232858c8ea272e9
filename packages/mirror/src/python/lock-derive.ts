/**
 * What deriving a `pypi` version's lock with uv is made of, without running it: the command line
 * (`uv pip compile - --format pylock.toml`), the requirement on its stdin, the names of the indexes
 * that carry credentials (their secrets go only into the resolver's environment), the derived
 * lock's file name, and the post-processing of uv's output (relaxed `requires-python`, provenance
 * header).
 */
import { normalizeName } from "./name.js";

export interface LockIndex {
  /** The Simple API base exactly as the spec writes it. */
  url: string;
  /**
   * Set when the index has a credential: the uv index name it is given (`name=url`), whose
   * `UV_INDEX_<NAME>_USERNAME`/`_PASSWORD` the environment carries.
   */
  name?: string;
}

export interface UvCompileRequest {
  /** The app's distribution name, as the spec names it. */
  package: string;
  version: string;
  /** `python.version` (`3.13.1`); uv is given its `X.Y`. */
  pythonVersion: string;
  universal: boolean;
  extras: readonly string[];
  exclude: readonly string[];
  /** Highest priority first. */
  indexes: readonly LockIndex[];
  /** Where uv writes the lock: a `pylock.toml` (uv accepts no other name but `pylock.<name>.toml`). */
  output: string;
}

/** The uv index name of the `i`-th index (0-based) when it carries a credential. */
export function lockIndexName(i: number): string {
  return `pkg-index-${i}`;
}

/** `UV_INDEX_<NAME>_` for an index name: upper case, every non-alphanumeric character `_`. */
export function uvIndexVariablePrefix(name: string): string {
  return `UV_INDEX_${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_`;
}

/** The line uv reads on stdin: `<package>[extras]==<version>`. */
export function requirementLine(request: Pick<UvCompileRequest, "package" | "version" | "extras">): string {
  const extras = request.extras.length === 0 ? "" : `[${request.extras.join(",")}]`;
  return `${request.package}${extras}==${request.version}\n`;
}

/**
 * uv's arguments (after the binary): the first-index strategy pinned, every index but the last as
 * `--index`, the last as `--default-index` (which also drops uv's implicit public index), wheels
 * only (`--no-build`: planning never runs a source distribution's build code, and a package is
 * published from wheels only), no configuration file consulted, no header of uv's own (the
 * provenance header replaces it).
 */
export function uvCompileArgs(request: UvCompileRequest): string[] {
  const [major, minor] = request.pythonVersion.split(".");
  const ref = (index: LockIndex) => (index.name === undefined ? index.url : `${index.name}=${index.url}`);
  const indexes = request.indexes.flatMap((index, i) => [
    i === request.indexes.length - 1 ? "--default-index" : "--index",
    ref(index),
  ]);
  return [
    "pip",
    "compile",
    "-",
    "--format",
    "pylock.toml",
    "--python-version",
    `${major}.${minor}`,
    ...(request.universal ? ["--universal"] : []),
    "--no-build",
    "--index-strategy",
    "first-index",
    ...indexes,
    ...request.exclude.flatMap((name) => ["--no-emit-package", name]),
    "--no-config",
    "--no-header",
    "-o",
    request.output,
  ];
}

/**
 * `pylock.<package>-<version>.toml`: the PEP 503 name and the version, every dot in that segment a
 * dash (`hello-app` 1.2.0 → `pylock.hello-app-1-2-0.toml`).
 */
export function derivedLockName(pkg: string, version: string): string {
  return `pylock.${`${normalizeName(pkg)}-${version}`.replace(/\./g, "-")}.toml`;
}

/**
 * The top-level `requires-python` with the patch level dropped from every `>=` clause
 * (`>=3.13.1` → `>=3.13`): a lock derived for 3.13.1 serves every 3.13 interpreter. Other lines
 * are left as they are.
 */
export function relaxRequiresPython(lockText: string): string {
  return lockText.replace(/^(requires-python\s*=\s*")([^"\n]*)(")/m, (_line, open, value: string, close) => {
    const relaxed = value.replace(/>=\s*(\d+)\.(\d+)\.\d+(?![\d.*])/g, ">=$1.$2");
    return `${open}${relaxed}${close}`;
  });
}

export interface Provenance {
  package: string;
  version: string;
  pythonVersion: string;
  universal: boolean;
  /** uv's `--version` line, when it gave one. */
  resolver?: string;
  generatedAt: Date;
}

/** The comment lines put before a derived lock's TOML (no secret, no index credential). */
export function provenanceHeader(p: Provenance): string {
  return [
    "# Derived by pkg-mirror pipeline plan from a pypi source (uv pip compile).",
    `# package: ${p.package}`,
    `# version: ${p.version}`,
    `# python: ${p.pythonVersion} (${p.universal ? "universal" : "host-pinned"})`,
    ...(p.resolver === undefined ? [] : [`# resolver: ${p.resolver}`]),
    `# generated_at: ${p.generatedAt.toISOString().replace(/\.\d{3}Z$/, "Z")}`,
    "#",
    "",
  ].join("\n");
}

/** uv's output with its own leading comments replaced by the provenance header, `requires-python` relaxed. */
export function finishDerivedLock(uvOutput: string, provenance: Provenance): string {
  const body = uvOutput.replace(/^(?:#[^\n]*\n|\s*\n)*/, "");
  return `${provenanceHeader(provenance)}${relaxRequiresPython(body)}`;
}
