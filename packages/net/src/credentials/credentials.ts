import { spawn } from "node:child_process";
import { constants } from "node:fs";
import { access, readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { childEnvironment, ExitCode, PkgError, registerSecret } from "@pkg/common";
import { type DockerConfigLookup, lookupDockerConfig, parseHelperOutput } from "./docker-config.js";
import { findNetrcMachine, parseNetrc } from "./netrc.js";

/** A resolved registry credential; `source` names where it came from (never the secret). */
export type Credential =
  | { kind: "basic"; username: string; password: string; source: string }
  /** A bearer or identity token (`PKG_AUTH_*_TYPE=bearer`, Docker `identitytoken`, helper `<token>`). */
  | { kind: "token"; username?: string; token: string; source: string };

export interface CredentialOptions {
  /** The environment to read `PKG_AUTH_*`, `NETRC`, `DOCKER_CONFIG`, `HOME`, `PATH` from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Whether Docker's config.json (and its credential helpers) is the ladder's last step (default true). */
  dockerConfig?: boolean;
}

const HELPER_TIMEOUT_MS = 30_000;

/** `localhost:5000` → `LOCALHOST_5000`: every non-alphanumeric character becomes `_`. */
export function credentialSlug(host: string, upperCase = true): string {
  const slug = host.replace(/[^A-Za-z0-9]/g, "_");
  return upperCase ? slug.toUpperCase() : slug;
}

function fromEnvironment(host: string, env: NodeJS.ProcessEnv): Credential | undefined {
  const slugs = [...new Set([credentialSlug(host), credentialSlug(host, false)])];
  for (const slug of slugs) {
    const prefix = `PKG_AUTH_${slug}_`;
    const type = env[`${prefix}TYPE`]?.trim().toLowerCase();
    const user = env[`${prefix}USER`];
    const token = env[`${prefix}TOKEN`];
    if (!type && !user && !token) continue;
    const source = `${prefix}*`;
    const kind = type || (user ? "basic" : "bearer");
    if (kind !== "basic" && kind !== "bearer") {
      throw new PkgError(ExitCode.Usage, `${prefix}TYPE must be "basic" or "bearer", not "${type}"`);
    }
    if (!token)
      throw new PkgError(ExitCode.Config, `${prefix}TOKEN is empty (needed for ${kind} credentials)`);
    if (kind === "bearer") return { kind: "token", token, source };
    if (!user) throw new PkgError(ExitCode.Config, `${prefix}USER is empty (needed for basic credentials)`);
    return { kind: "basic", username: user, password: token, source };
  }
  return undefined;
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return undefined;
    throw new PkgError(ExitCode.Config, `cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
}

function homeOf(env: NodeJS.ProcessEnv): string {
  return env.HOME || homedir();
}

/** Without the port, for a second netrc lookup (`localhost:5000` → `localhost`). */
function hostnameOf(host: string): string {
  return host.replace(/:[0-9]+$/, "");
}

async function fromNetrc(host: string, env: NodeJS.ProcessEnv): Promise<Credential | undefined> {
  const path = env.NETRC || join(homeOf(env), ".netrc");
  const text = await readOptional(path);
  if (text === undefined) return undefined;
  const entries = parseNetrc(text);
  const entry = findNetrcMachine(entries, host) ?? findNetrcMachine(entries, hostnameOf(host));
  if (!entry?.password) return undefined;
  const source = `netrc ${path}`;
  if (entry.login) return { kind: "basic", username: entry.login, password: entry.password, source };
  return { kind: "token", token: entry.password, source };
}

async function findOnPath(command: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}

/** Runs `docker-credential-<name> get` with the host on stdin; undefined when it has nothing. */
async function runHelper(name: string, host: string, env: NodeJS.ProcessEnv): Promise<DockerConfigLookup> {
  const executable = await findOnPath(`docker-credential-${name}`, env);
  if (!executable) return { kind: "none" };
  const output = await new Promise<string | undefined>((resolve) => {
    const child = spawn(executable, ["get"], {
      env: childEnvironment(env),
      stdio: ["pipe", "pipe", "ignore"],
      timeout: HELPER_TIMEOUT_MS,
    });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("error", () => resolve(undefined));
    child.on("close", (code) => resolve(code === 0 ? Buffer.concat(chunks).toString("utf8") : undefined));
    child.stdin.on("error", () => {});
    child.stdin.end(host);
  });
  return output === undefined ? { kind: "none" } : parseHelperOutput(output);
}

async function fromDockerConfig(host: string, env: NodeJS.ProcessEnv): Promise<Credential | undefined> {
  const path = env.DOCKER_CONFIG
    ? join(env.DOCKER_CONFIG, "config.json")
    : join(homeOf(env), ".docker", "config.json");
  const text = await readOptional(path);
  if (text === undefined) return undefined;
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (error) {
    throw new PkgError(ExitCode.Config, `${path} is not valid JSON`, { cause: error });
  }
  let found = lookupDockerConfig(config, host);
  let source = `docker config ${path}`;
  if (found.kind === "helper") {
    source = `credential helper docker-credential-${found.helper}`;
    found = await runHelper(found.helper, host, env);
  }
  switch (found.kind) {
    case "basic":
      return { kind: "basic", username: found.username, password: found.password, source };
    case "token":
      return found.username === undefined
        ? { kind: "token", token: found.token, source }
        : { kind: "token", username: found.username, token: found.token, source };
    default:
      return undefined;
  }
}

function register(credential: Credential): Credential {
  if (credential.kind === "basic") {
    registerSecret(credential.password);
    registerSecret(Buffer.from(`${credential.username}:${credential.password}`).toString("base64"));
  } else {
    registerSecret(credential.token);
  }
  return credential;
}

/**
 * The credential for a registry host (`host[:port]`), from the host-keyed ladder: `PKG_AUTH_<slug>_*`,
 * then netrc (exact `machine`, `default` ignored), then Docker's config.json unless `dockerConfig`
 * is false; undefined = anonymous.
 */
export async function resolveCredential(
  host: string,
  options: CredentialOptions = {},
): Promise<Credential | undefined> {
  const env = options.env ?? process.env;
  const found =
    fromEnvironment(host, env) ??
    (await fromNetrc(host, env)) ??
    (options.dockerConfig === false ? undefined : await fromDockerConfig(host, env));
  return found ? register(found) : undefined;
}
