/**
 * The `metadata.json` of an environment package (one `wheels` key of a `pylock`/`pypi` version):
 * the interpreter as a private dependency pinned by digest, `PYTHONPATH`/`PATH`, and one launcher
 * per admitted console script (`python.entrypoints`) running the pinned interpreter's `python`
 * (never `python3`), plus a bare `python` entrypoint. A library (no admitted script) gets no
 * entrypoints. Pure: the caller resolves the interpreter's digest and repacks the wheels.
 */
import { ExitCode, PkgError } from "@pkg/common";
import { parseReference } from "@pkg/oci";
import type { Entrypoint, Metadata } from "@pkg/package";
import { validateMetadata } from "@pkg/package";
import type { Entrypoints } from "../spec/python.js";
import { normalizeName } from "./name.js";
import { compareVersions, parseVersion } from "./pep440.js";
import type { ConsoleScript } from "./wheel-layout.js";

/** How launchers and placeholders name the interpreter dependency. */
export const INTERPRETER_DEPENDENCY = "python";

export interface ComposeWheel {
  /** The wheel's file name (for messages). */
  wheel: string;
  /** PEP 503 name of its distribution. */
  distribution: string;
  consoleScripts: readonly ConsoleScript[];
}

export interface ComposeInput {
  /** The app's name (spec `name` or `source.package`); its wheel is the root. */
  app: string;
  /** The app's locked version (bounds of explicit entrypoints apply to it). */
  appVersion: string;
  /** `python.interpreter_package` as written (`ghcr.io/acme/python:3.13`). */
  interpreter: string;
  /** `sha256:<hex>` the interpreter reference resolved to (its image index: the host's entry is picked at install). */
  interpreterDigest: string;
  entrypoints: Entrypoints;
  wheels: readonly ComposeWheel[];
}

function dataError(message: string): never {
  throw new PkgError(ExitCode.Data, message);
}

/** The interpreter reference pinned to `digest`, its tag kept as information. */
export function pinnedInterpreter(reference: string, digest: string): string {
  if (!/^sha256:[0-9a-f]{64}$/.test(digest))
    dataError(`interpreter digest ${JSON.stringify(digest)} is not sha256:<64 hex>`);
  const parsed = parseReference(reference);
  if (parsed.digest !== undefined && parsed.digest !== digest) {
    dataError(`python.interpreter_package ${reference} is pinned to ${parsed.digest}, not ${digest}`);
  }
  const tag = parsed.tag === undefined ? "" : `:${parsed.tag}`;
  return `${parsed.registry}/${parsed.repository}${tag}@${digest}`;
}

/** Whether an explicit entrypoint applies to the app version: `min_version` inclusive, `max_version` exclusive. */
function inBounds(entry: { min_version?: string; max_version?: string }, appVersion: string): boolean {
  const version = parseVersion(appVersion);
  if (version === undefined) return true; // an unparsable app version keeps every explicit entry
  const min = entry.min_version === undefined ? undefined : parseVersion(entry.min_version);
  const max = entry.max_version === undefined ? undefined : parseVersion(entry.max_version);
  if (min !== undefined && compareVersions(version, min) < 0) return false;
  if (max !== undefined && compareVersions(version, max) >= 0) return false;
  return true;
}

/** The console scripts that become entrypoints, each with its wheel; collisions and missing names are 65. */
export function admittedScripts(input: ComposeInput): Array<{ script: ConsoleScript; wheel: string }> {
  const root = normalizeName(input.app);
  const mode = input.entrypoints;
  const candidates =
    mode === "auto" ? input.wheels.filter((w) => normalizeName(w.distribution) === root) : input.wheels;
  const wanted =
    typeof mode === "string"
      ? undefined
      : new Set(mode.filter((e) => inBounds(e, input.appVersion)).map((e) => e.name));
  const chosen = new Map<string, { script: ConsoleScript; wheel: string }>();
  for (const wheel of candidates) {
    for (const script of wheel.consoleScripts) {
      if (wanted !== undefined && !wanted.has(script.name)) continue;
      const earlier = chosen.get(script.name);
      if (earlier !== undefined && earlier.wheel !== wheel.wheel) {
        dataError(`entrypoint ${script.name} is provided by both ${earlier.wheel} and ${wheel.wheel}`);
      }
      chosen.set(script.name, { script, wheel: wheel.wheel });
    }
  }
  for (const name of wanted ?? []) {
    if (!chosen.has(name))
      dataError(`python.entrypoints names ${name}, which no selected wheel provides as a console script`);
  }
  return [...chosen.values()].sort((a, b) =>
    a.script.name < b.script.name ? -1 : a.script.name > b.script.name ? 1 : 0,
  );
}

/**
 * The `-c` program of a launcher: imports the module, walks the attribute chain with `getattr`
 * (never `from … import …`), names itself in `sys.argv[0]` and exits with the function's result.
 */
export function launcherProgram(script: ConsoleScript): string {
  const attributes = script.attribute.split(".");
  return [
    "import functools, importlib, sys",
    `sys.argv[0] = ${JSON.stringify(script.name)}`,
    `sys.exit(functools.reduce(getattr, ${JSON.stringify(attributes)}, importlib.import_module(${JSON.stringify(script.module)}))())`,
  ].join("; ");
}

function launcher(script: ConsoleScript, wheel: string): Entrypoint {
  if (script.attribute === "") {
    dataError(
      `${wheel}: console script ${script.name} = ${script.module} names no function (module:function)`,
    );
  }
  return { name: script.name, target: "python", args: ["-c", launcherProgram(script)] };
}

/** The composed metadata, checked by the package tool's own validator (its errors are 65). */
export function composeEnvMetadata(input: ComposeInput): Metadata {
  const scripts = admittedScripts(input);
  const entrypoints = scripts.map(({ script, wheel }) => launcher(script, wheel));
  if (entrypoints.length > 0 && !entrypoints.some((e) => e.name === "python")) {
    entrypoints.push({ name: "python", target: "python" });
  }
  const metadata: Metadata = {
    type: "bundle",
    version: 1,
    env: [
      { key: "PYTHONPATH", type: "path", value: `\${installPath}/lib/site-packages`, required: true },
      { key: "PATH", type: "path", value: `\${installPath}/bin`, required: false },
      { key: "PYTHONDONTWRITEBYTECODE", type: "constant", value: "1" },
    ],
    binaries: [],
    ...(entrypoints.length > 0 ? { entrypoints } : {}),
    dependencies: [
      {
        identifier: pinnedInterpreter(input.interpreter, input.interpreterDigest),
        name: INTERPRETER_DEPENDENCY,
        visibility: "private",
      },
    ],
  };
  return validateMetadata(metadata, `the composed metadata of ${input.app} ${input.appVersion}`);
}
