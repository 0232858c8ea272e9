import { isValidRegistryHost, isValidRepository, isValidTag } from "@pkg/oci";

/**
 * A container image reference as container engines take it: `alpine:3.20`,
 * `docker.io/library/ubuntu:24.04`, `ghcr.io/acme/build@sha256:…`. Unlike a package reference the
 * registry is optional (Docker Hub is implied), so a first segment counts as a host only when it has
 * a dot or a port or is `localhost`.
 */
export interface ImageRef {
  registry?: string;
  repository: string;
  tag?: string;
  digest?: string;
}

const DIGEST = /^[a-z0-9]+(?:[+._-][a-z0-9]+)*:[a-zA-Z0-9=_-]{32,}$/;

/** Parses an image reference or says in a few words why the text is not one. */
export function matchImageRef(text: string): ImageRef | string {
  if (text.length === 0) return "empty";
  if (/\s/.test(text)) return "contains whitespace";
  if (text.includes("://")) return "is a URL; write [registry/]repository[:tag][@digest]";
  let rest = text;
  const ref: Partial<ImageRef> = {};
  const at = rest.indexOf("@");
  if (at >= 0) {
    const digest = rest.slice(at + 1);
    if (!DIGEST.test(digest)) return "the digest after @ is not <algorithm>:<hex>";
    ref.digest = digest;
    rest = rest.slice(0, at);
  }
  const slash = rest.indexOf("/");
  const first = slash < 0 ? "" : rest.slice(0, slash);
  if (first.includes(".") || first.includes(":") || first === "localhost") {
    if (!isValidRegistryHost(first)) return `"${first}" is not a valid registry host`;
    ref.registry = first;
    rest = rest.slice(slash + 1);
  }
  const colon = rest.lastIndexOf(":");
  if (colon >= 0) {
    const tag = rest.slice(colon + 1);
    if (!isValidTag(tag)) return `tag "${tag}" must match [A-Za-z0-9_][A-Za-z0-9_.-]{0,127}`;
    ref.tag = tag;
    rest = rest.slice(0, colon);
  }
  if (!isValidRepository(rest)) {
    return "the repository must be lowercase letters and digits separated by '.', '_', '__', '-' or '/'";
  }
  return { ...ref, repository: rest };
}

/** The image's name without registry and Docker Hub's `library/`: `alpine`, `opensuse/leap`. */
export function imageName(ref: ImageRef): string {
  const hub =
    ref.registry === undefined || ref.registry === "docker.io" || ref.registry === "index.docker.io";
  return hub && ref.repository.startsWith("library/")
    ? ref.repository.slice("library/".length)
    : ref.repository;
}

/**
 * The shell a base image is known to have, by the start of its name (the spec's list); other
 * images must name their shell.
 */
const SHELL_BY_BASE: ReadonlyArray<readonly [string, string]> = [
  ["alpine", "sh"],
  ["ubuntu", "bash"],
  ["debian", "bash"],
  ["fedora", "bash"],
  ["rocky", "bash"],
  ["opensuse", "bash"],
];

export function defaultShell(ref: ImageRef): string | undefined {
  const name = imageName(ref);
  return SHELL_BY_BASE.find(([base]) => name.startsWith(base))?.[1];
}

/**
 * Which libc a base image ships, by the start of its name. Alpine is the musl base; the glibc
 * bases are the common distributions. An image outside both lists has an unknown libc: the loader
 * refuses it on a `+libc.*` key rather than guess.
 */
const LIBC_BY_BASE: ReadonlyArray<readonly [string, "musl" | "glibc"]> = [
  ["alpine", "musl"],
  ["ubuntu", "glibc"],
  ["debian", "glibc"],
  ["fedora", "glibc"],
  ["rocky", "glibc"],
  ["opensuse", "glibc"],
  ["centos", "glibc"],
  ["almalinux", "glibc"],
  ["oraclelinux", "glibc"],
  ["amazonlinux", "glibc"],
  ["archlinux", "glibc"],
  ["redhat/ubi", "glibc"],
];

export const KNOWN_LIBC_BASES = LIBC_BY_BASE.map(([base]) => base);

export function imageLibc(ref: ImageRef): "musl" | "glibc" | undefined {
  const name = imageName(ref);
  return LIBC_BY_BASE.find(([base]) => name.startsWith(base))?.[1];
}
