import { ExitCode, PkgError } from "@pkg/common";
import { parseDigest } from "./digest.js";

/** `<registry-host>[:port]/<repository>[:<tag>][@<digest>]`, parsed. */
export interface Reference {
  /** Host and optional port as written (`registry.example.com`, `localhost:5000`, `[::1]:5000`). */
  registry: string;
  repository: string;
  tag?: string;
  digest?: string;
}

const hostLabel = "(?:[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9])";
const hostPattern = new RegExp(`^(?:${hostLabel}(?:\\.${hostLabel})*|\\[[0-9A-Fa-f:.]+\\])(?::[0-9]{1,5})?$`);
const pathComponentPattern = /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*$/;
const tagPattern = /^[\w][\w.-]{0,127}$/;
const MAX_REPOSITORY_LENGTH = 255;

export function isValidTag(tag: string): boolean {
  return tagPattern.test(tag);
}

/**
 * Whether a manifest reference names a digest (true) or a tag (false); anything that is neither is
 * a usage error naming `what` (exit 64).
 */
export function isDigestReference(reference: string, what: string): boolean {
  if (parseDigest(reference) !== undefined) return true;
  if (!isValidTag(reference)) throw new PkgError(ExitCode.Usage, `${what}: invalid tag`);
  return false;
}

export function isValidRepository(repository: string): boolean {
  return (
    repository.length > 0 &&
    repository.length <= MAX_REPOSITORY_LENGTH &&
    repository.split("/").every((part) => pathComponentPattern.test(part))
  );
}

/** A first path segment names a registry when it has a dot or a port, or is `localhost`. */
function looksLikeRegistry(segment: string): boolean {
  return segment.includes(".") || segment.includes(":") || segment.startsWith("[") || segment === "localhost";
}

export function isValidRegistryHost(host: string): boolean {
  const port = /:([0-9]+)$/.exec(host)?.[1];
  if (port !== undefined && Number(port) > 65535) return false;
  return hostPattern.test(host);
}

/**
 * A reference whose registry host may be left out, `[<registry-host>/]<repository>[:<tag>][@<digest>]`,
 * for targets that need no registry (an OCI image layout directory).
 */
export interface RepositoryReference extends Omit<Reference, "registry"> {
  registry?: string;
}

/** Parses a reference or throws a usage error (exit 64) saying what is wrong. */
export function parseReference(input: string): Reference {
  const parsed = parse(input, true);
  const { registry } = parsed;
  if (registry === undefined) throw new RangeError("parse() with a registry required gave none");
  return { ...parsed, registry };
}

/**
 * Parses `[<registry-host>/]<repository>[:<tag>][@<digest>]`: as `parseReference`, but a first
 * segment that does not name a registry (no dot, no port, not `localhost`) is the repository's own
 * (`hello:1.0`, `tools/hello@sha256:...`), as Docker reads names. Exit 64 when malformed.
 */
export function parseRepositoryReference(input: string): RepositoryReference {
  return parse(input, false);
}

function parse(input: string, registryRequired: boolean): RepositoryReference {
  const fail = (reason: string, echo = true): never => {
    throw new PkgError(
      ExitCode.Usage,
      echo ? `invalid reference "${input}": ${reason}` : `invalid reference: ${reason}`,
    );
  };
  if (input.length === 0) fail("empty");
  if (/\s/.test(input)) fail("contains whitespace");
  if (input.includes("://"))
    fail("must not start with a URL scheme; write <registry-host>/<repository>[:<tag>]");

  let rest = input;
  let digest: string | undefined;
  const at = rest.indexOf("@");
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    // `user:secret@host/repo` must never be echoed back
    if (digest.includes("/")) fail("must not contain credentials (user@host)", false);
    if (!parseDigest(digest)) fail(`digest "${digest}" is not sha256:<64 hex digits>`);
  }

  const slash = rest.indexOf("/");
  const first = slash < 0 ? undefined : rest.slice(0, slash);
  let registry: string | undefined;
  let path = rest;
  if (first !== undefined && looksLikeRegistry(first)) {
    if (!isValidRegistryHost(first)) fail(`"${first}" is not a valid host[:port]`);
    registry = first;
    path = rest.slice(slash + 1);
  } else if (registryRequired) {
    if (first === undefined) fail("must start with a registry host (<host>[:port]/<repository>)");
    fail(`"${first}" is not a registry host (needs a dot, a port, or localhost); the registry is mandatory`);
  }

  let tag: string | undefined;
  const colon = path.lastIndexOf(":");
  if (colon >= 0) {
    tag = path.slice(colon + 1);
    path = path.slice(0, colon);
    if (!isValidTag(tag)) fail(`tag "${tag}" must match [A-Za-z0-9_][A-Za-z0-9_.-]{0,127}`);
  }
  if (path.length === 0) fail("repository is missing");
  if (path.length > MAX_REPOSITORY_LENGTH)
    fail(`repository is longer than ${MAX_REPOSITORY_LENGTH} characters`);
  for (const part of path.split("/")) {
    if (part.length === 0) fail("repository has an empty path component");
    if (!pathComponentPattern.test(part)) {
      fail(
        `repository component "${part}" must be lowercase letters and digits separated by ".", "_", "__" or "-"`,
      );
    }
  }

  const reference: RepositoryReference =
    registry === undefined ? { repository: path } : { registry, repository: path };
  if (tag !== undefined) reference.tag = tag;
  if (digest !== undefined) reference.digest = digest;
  return reference;
}

export function formatReference(reference: Reference | RepositoryReference): string {
  const registry = reference.registry === undefined ? "" : `${reference.registry}/`;
  const tag = reference.tag === undefined ? "" : `:${reference.tag}`;
  const digest = reference.digest === undefined ? "" : `@${reference.digest}`;
  return `${registry}${reference.repository}${tag}${digest}`;
}
