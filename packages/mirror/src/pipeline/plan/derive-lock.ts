import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { childEnvironment, ExitCode, type Logger, PkgError, writeAtomically } from "@pkg/common";
import { resolveCredential } from "@pkg/net";
import { type BoundedOutcome, runBounded } from "../../process/bounded-run.js";
import {
  derivedLockName,
  finishDerivedLock,
  type LockIndex,
  lockIndexName,
  requirementLine,
  uvCompileArgs,
  uvIndexVariablePrefix,
} from "../../python/lock-derive.js";
import { normalizeName } from "../../python/name.js";
import { parsePylock } from "../../python/pylock.js";
import type { Python } from "../../spec/python.js";
import type { PypiSource } from "../../spec/source-python.js";

/** The variable naming the resolver binary instead of `uv` on PATH. */
export const UV_VARIABLE = "PKG_MIRROR_UV";

/** The uv release this pkg-mirror derives locks with: what generated CI installs and tests run. */
export const UV_RELEASE = "0.13.8";

export interface LockDeriver {
  /** Derives `version`'s lock into the locks directory and returns the file's absolute path. */
  derive(version: string): Promise<string>;
}

export interface LockDeriverOptions {
  env: NodeJS.ProcessEnv;
  log: Logger;
  /** `--locks-dir`, relative to the working directory. */
  locksDir: string;
  /** The provenance header's time. */
  now: Date;
}

/**
 * Lock derivation for a `pypi` source with uv (`PKG_MIRROR_UV` names another binary): each
 * version's `<package>[extras]==<version>` resolved against the spec's indexes (first-index
 * strategy), written as `<locks-dir>/pylock.<package>-<version>.toml` with the relaxed
 * `requires-python` and a provenance header, after the lock re-parses (PEP 751) and locks the app
 * at that version from wheels only. Index credentials come from the host ladder and reach uv only
 * through its environment (`UV_INDEX_<NAME>_USERNAME`/`_PASSWORD`). A resolution uv refuses, or a
 * lock that fails those checks, is exit 65; a missing resolver, a timeout
 * (`python.lock.timeout_seconds`) or a lock that cannot be written is exit 1.
 */
export async function lockDeriver(
  source: PypiSource,
  python: Python,
  appName: string,
  options: LockDeriverOptions,
): Promise<LockDeriver> {
  const uv = options.env[UV_VARIABLE] || "uv";
  const { indexes, credentials } = await indexCredentials(source, options.env);
  const env = { ...resolverEnvironment(options.env), ...credentials };
  const resolver = await resolverVersion(uv, env, python.lock.timeout_seconds);
  const pkg = source.package ?? appName;
  const locksDir = resolve(options.locksDir);
  return {
    async derive(version) {
      const work = await ioStep("creating a working directory", () =>
        mkdtemp(join(tmpdir(), "pkg-mirror-lock-")),
      );
      try {
        const output = join(work, "pylock.toml");
        const request = {
          package: pkg,
          version,
          pythonVersion: python.version,
          universal: python.lock.universal,
          extras: python.lock.extras,
          exclude: python.lock.exclude,
          indexes,
          output,
        };
        options.log.progress(`deriving the lock of ${pkg} ${version} with ${uv}`);
        await runResolver(uv, uvCompileArgs(request), {
          env,
          stdin: requirementLine(request),
          timeoutSeconds: python.lock.timeout_seconds,
          what: `${pkg} ${version}`,
        });
        const raw = await ioStep(`reading uv's lock of ${pkg} ${version}`, () => readFile(output, "utf8"));
        const file = join(locksDir, derivedLockName(pkg, version));
        const text = finishDerivedLock(raw, {
          package: pkg,
          version,
          pythonVersion: python.version,
          universal: python.lock.universal,
          ...(resolver === undefined ? {} : { resolver }),
          generatedAt: options.now,
        });
        checkDerivedLock(text, file, pkg, version);
        await ioStep(`writing ${file}`, async () => {
          await mkdir(locksDir, { recursive: true });
          await writeAtomically(file, "lock", (temp) => writeFile(temp, text));
        });
        return file;
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },
  };
}

/**
 * The lock as the later steps read it (fail closed, exit 65): PEP 751, the app locked at `version`,
 * every package from wheels (an sdist-only or source-tree package cannot become a layer).
 */
function checkDerivedLock(text: string, file: string, pkg: string, version: string): void {
  const lock = parsePylock(text, file);
  const app = lock.packages.find((p) => p.name === normalizeName(pkg));
  if (app?.version !== version) {
    throw new PkgError(
      ExitCode.Data,
      `${file}: the derived lock does not lock ${normalizeName(pkg)} ${version}${app?.version === undefined ? "" : ` (it locks ${app.version})`}`,
    );
  }
  const noWheel = lock.packages.filter((p) => p.wheels.length === 0).map((p) => p.name);
  if (noWheel.length > 0) {
    throw new PkgError(
      ExitCode.Data,
      `${file}: ${noWheel.join(", ")} ${noWheel.length === 1 ? "has" : "have"} no wheel (only a source distribution or tree); a package is built from wheels only`,
    );
  }
}

/**
 * Each index as uv is given it, and the credential variables of those that have one (the host's
 * ladder: `PKG_AUTH_<host>_*`, then netrc). A bearer token is the password of user `__token__`.
 */
async function indexCredentials(
  source: PypiSource,
  env: NodeJS.ProcessEnv,
): Promise<{ indexes: LockIndex[]; credentials: Record<string, string> }> {
  const credentials: Record<string, string> = {};
  const indexes: LockIndex[] = [];
  for (const [i, index] of source.indexes.entries()) {
    const credential = await resolveCredential(new URL(index.url).host, { env, dockerConfig: false });
    if (credential === undefined) {
      indexes.push({ url: index.url });
      continue;
    }
    const name = lockIndexName(i);
    const prefix = uvIndexVariablePrefix(name);
    credentials[`${prefix}USERNAME`] =
      credential.kind === "basic" ? credential.username : (credential.username ?? "__token__");
    credentials[`${prefix}PASSWORD`] = credential.kind === "basic" ? credential.password : credential.token;
    indexes.push({ url: index.url, name });
  }
  return { indexes, credentials };
}

/** Variables that would add indexes, credentials or configuration behind the spec's back. */
const FOREIGN_RESOLVER_VARIABLE =
  /^(?:PKG_AUTH_|UV_INDEX|UV_DEFAULT_INDEX$|UV_EXTRA_INDEX_URL$|UV_FIND_LINKS$|UV_NO_INDEX$|UV_CONFIG_FILE$|UV_KEYRING_PROVIDER$|PIP_)/i;

/** The run's environment for uv: no signing secrets, no host credentials, no stray index settings. */
function resolverEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = childEnvironment(env);
  for (const key of Object.keys(out)) if (FOREIGN_RESOLVER_VARIABLE.test(key)) delete out[key];
  return out;
}

/** `uv --version`'s line; a resolver that cannot start is exit 1. */
async function resolverVersion(
  uv: string,
  env: NodeJS.ProcessEnv,
  timeoutSeconds: number,
): Promise<string | undefined> {
  const { stdout } = await runResolver(uv, ["--version"], { env, timeoutSeconds, what: "its version" });
  return stdout.trim().split("\n")[0] || undefined;
}

interface ResolverRun {
  env: NodeJS.ProcessEnv;
  stdin?: string;
  timeoutSeconds: number;
  /** What is resolved, for messages. */
  what: string;
}

/**
 * Runs the resolver without a shell, leading its own process group (a timeout kills all it
 * started). Cannot start or timed out: exit 1; a non-zero exit: exit 65 with its last error lines.
 */
async function runResolver(
  file: string,
  args: readonly string[],
  run: ResolverRun,
): Promise<{ stdout: string }> {
  let outcome: BoundedOutcome;
  try {
    outcome = await runBounded(file, args, {
      env: run.env,
      stdin: run.stdin ?? "",
      timeoutMs: run.timeoutSeconds * 1000,
    });
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "not found" : String(error);
    throw new PkgError(
      ExitCode.Failed,
      `lock derivation: the resolver ${JSON.stringify(file)} cannot start: ${reason} (install uv, or name it with ${UV_VARIABLE})`,
      { cause: error },
    );
  }
  if (outcome.ended !== "exited") {
    throw new PkgError(
      ExitCode.Failed,
      `lock derivation of ${run.what}: ${file} timed out after ${run.timeoutSeconds} s (python.lock.timeout_seconds) and was killed`,
    );
  }
  if (outcome.code !== 0) {
    const how =
      outcome.code === null ? `was killed by ${outcome.signal}` : `exited with status ${outcome.code}`;
    const said = errorLines(outcome.stderrTail);
    throw new PkgError(
      ExitCode.Data,
      `lock derivation of ${run.what} failed: ${file} ${how}${said ? `: ${said}` : ""}`,
    );
  }
  return { stdout: outcome.stdout.toString("utf8") };
}

/** From uv's stderr: the `error:` line and its causes, else the last line, on one line. */
function errorLines(text: string): string {
  const lines = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const first = lines.findIndex((line) => line.startsWith("error:"));
  return (first === -1 ? lines.slice(-1) : lines.slice(first)).join(" ").slice(0, 2000);
}

/** An I/O step of lock derivation; its failure is exit 1 naming what it was doing. */
async function ioStep<T>(what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw new PkgError(ExitCode.Failed, `lock derivation: ${what}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
