import { ExitCode, PkgError } from "@pkg/common";

/** The two forges: forgeone speaks GitHub's REST shapes, forgetwo GitLab's. */
export type Forge = "forgeone" | "forgetwo";
export type Transport = "api" | "git";

/**
 * A project on a forge, `[HOST/]NAMESPACE/PROJECT` (`acme/index`, `gitlab.example.com/group/sub/index`).
 * The first segment is a host when it has a dot or a port or is `localhost`; without one the project
 * is on the public forgeone host.
 */
export interface ForgeCoordinate {
  /** As written. */
  text: string;
  /** Lowercase `host[:port]`. */
  host: string;
  /** One segment, or several (`group/sub`) for a nested namespace. */
  namespace: string;
  project: string;
}

/** The public hosts whose forge is known. */
export const PUBLIC_FORGE_HOSTS: Readonly<Record<string, Forge>> = {
  "github.com": "forgeone",
  "gitlab.com": "forgetwo",
};
export const DEFAULT_FORGE_HOST = "github.com";

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
const HOST_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;

function hostProblem(host: string): string | undefined {
  const [name = "", port, ...more] = host.split(":");
  if (more.length > 0 || (port !== undefined && !/^[0-9]{1,5}$/.test(port))) {
    return `${JSON.stringify(host)} is not a host[:port]`;
  }
  if (!name.split(".").every((label) => HOST_LABEL.test(label))) {
    return `${JSON.stringify(host)} is not a host name`;
  }
  return undefined;
}

/** Parses a coordinate, or says in a few words why the text is not one. */
export function matchForgeCoordinate(text: string): ForgeCoordinate | string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) || /^[^/]*@[^/]*:/.test(text)) {
    return "is a URL; write [HOST/]NAMESPACE/PROJECT (for example acme/index)";
  }
  const segments = text.split("/");
  const first = segments[0] ?? "";
  let host = DEFAULT_FORGE_HOST;
  if (first.includes(".") || first.includes(":") || first === "localhost") {
    const problem = hostProblem(first);
    if (problem) return problem;
    host = first.toLowerCase();
    segments.shift();
  }
  if (segments.length < 2) return "is not [HOST/]NAMESPACE/PROJECT";
  const bad = segments.find((segment) => !SEGMENT.test(segment) || segment === "." || segment === "..");
  if (bad !== undefined) {
    return `has ${JSON.stringify(bad)}, not a namespace or project name (letters, digits, '.', '_', '-')`;
  }
  const project = segments.pop() ?? "";
  return { text, host, namespace: segments.join("/"), project };
}

/** `NAMESPACE/PROJECT`, the project's path on its host. */
export function projectPath(coordinate: ForgeCoordinate): string {
  return `${coordinate.namespace}/${coordinate.project}`;
}

/** `host/ns/project`, for messages. */
export function coordinateLabel(coordinate: ForgeCoordinate): string {
  return `${coordinate.host}/${projectPath(coordinate)}`;
}

/**
 * The REST API root of a forge host: the public hosts' own API origins, and for a self-hosted host
 * GitHub Enterprise's `/api/v3` or GitLab's `/api/v4` under https.
 */
export function apiBaseUrl(forge: Forge, host: string): string {
  if (forge === "forgeone")
    return host === "github.com" ? "https://api.github.com" : `https://${host}/api/v3`;
  return `https://${host}/api/v4`;
}

/** The https URL git clones and pushes (no credentials in it, ever). */
export function gitRemoteUrl(coordinate: ForgeCoordinate): string {
  return `https://${coordinate.host}/${projectPath(coordinate)}.git`;
}

/** Where an announce goes, checked: the index repository, its forge, the fork, the transport. */
export interface ForgeTarget {
  forge: Forge;
  transport: Transport;
  indexRepo: ForgeCoordinate;
  fork?: ForgeCoordinate;
  apiBase: string;
}

export interface ForgeTargetInput {
  /** `--index-repo`, as written. */
  indexRepo: string;
  /** `--fork`, as written. */
  fork?: string | undefined;
  /** `--forge`; required for a self-hosted host. */
  forge?: string | undefined;
  /** `--transport`, default api. */
  transport?: string | undefined;
}

const usage = (message: string) => new PkgError(ExitCode.Usage, message);

function parseCoordinate(flag: string, text: string): ForgeCoordinate {
  const found = matchForgeCoordinate(text);
  if (typeof found === "string") throw usage(`${flag} ${JSON.stringify(text)} ${found}`);
  return found;
}

/**
 * Resolves and checks the flags of a forge destination (every refusal is a usage error, exit 64):
 * coordinates in the grammar, the forge inferred for the two public hosts and required otherwise,
 * one-level namespaces on forgeone, the fork on the index repository's host and not the index
 * repository itself, the git transport only on forgetwo and never with a fork.
 */
export function resolveForgeTarget(input: ForgeTargetInput): ForgeTarget {
  const indexRepo = parseCoordinate("--index-repo", input.indexRepo);
  const fork = input.fork === undefined ? undefined : parseCoordinate("--fork", input.fork);
  const inferred = PUBLIC_FORGE_HOSTS[indexRepo.host];
  let forge: Forge;
  if (input.forge === undefined) {
    if (!inferred) {
      throw usage(
        `${indexRepo.host} is a self-hosted forge; say which with --forge forgeone or --forge forgetwo`,
      );
    }
    forge = inferred;
  } else if (input.forge === "forgeone" || input.forge === "forgetwo") {
    if (inferred && inferred !== input.forge)
      throw usage(`${indexRepo.host} is ${inferred}, not ${input.forge}`);
    forge = input.forge;
  } else {
    throw usage(`--forge ${JSON.stringify(input.forge)}: expected forgeone or forgetwo`);
  }
  const transport = input.transport ?? "api";
  if (transport !== "api" && transport !== "git") {
    throw usage(`--transport ${JSON.stringify(transport)}: expected api or git`);
  }
  if (fork) {
    if (fork.host !== indexRepo.host) {
      throw usage(
        `--fork is on ${fork.host} but the index repository on ${indexRepo.host}; both must be on one host`,
      );
    }
    if (projectPath(fork).toLowerCase() === projectPath(indexRepo).toLowerCase()) {
      throw usage(`--fork ${fork.text} is the index repository itself; omit --fork to push there directly`);
    }
  }
  if (forge === "forgeone") {
    for (const [flag, coordinate] of [
      ["--index-repo", indexRepo],
      ["--fork", fork],
    ] as const) {
      if (coordinate?.namespace.includes("/")) {
        throw usage(
          `${flag} ${coordinate.text}: nested namespace ${JSON.stringify(coordinate.namespace)}; forgeone has one-level namespaces`,
        );
      }
    }
  }
  if (transport === "git") {
    if (forge !== "forgetwo")
      throw usage("--transport git is only for forgetwo; use --transport api on forgeone");
    if (fork) {
      throw usage("--transport git pushes to the index repository itself; it cannot be combined with --fork");
    }
  }
  return {
    forge,
    transport,
    indexRepo,
    ...(fork ? { fork } : {}),
    apiBase: apiBaseUrl(forge, indexRepo.host),
  };
}
