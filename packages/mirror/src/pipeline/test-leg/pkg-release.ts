import { ExitCode, PkgError } from "@pkg/common";

/**
 * The one package-tool release every container leg runs (`PKG_CONTAINER_CLI_TAG` in the spec):
 * a statically linked, libc-matched `pkg` of this tag is mounted into each test container. It is
 * a constant of the renderer, not a spec field; it advances with the repository's pinned
 * mirroring tool (regenerate CI after bumping it).
 */
export const PKG_CONTAINER_CLI_TAG = "v0.1.0";

/** Where a release's static builds are downloaded from: `<base>/<tag>/pkg-<triple>.tar.gz`. */
export const PKG_RELEASE_DOWNLOAD_BASE = "https://github.com/pkg-sh/pkg/releases/download";

/** The CPU names static releases are built for (`uname -m` on the runner must match). */
export type ContainerArch = "x86_64" | "aarch64";

/** The target triple of a static release: `x86_64-unknown-linux-musl`, `aarch64-unknown-linux-gnu`. */
export function staticPkgTriple(arch: ContainerArch, libc: "glibc" | "musl"): string {
  return `${arch}-unknown-linux-${libc === "glibc" ? "gnu" : "musl"}`;
}

/** The download URL of the static `pkg` for a container of `arch` and `libc`. */
export function staticPkgUrl(
  arch: ContainerArch,
  libc: "glibc" | "musl",
  tag = PKG_CONTAINER_CLI_TAG,
): string {
  return `${PKG_RELEASE_DOWNLOAD_BASE}/${tag}/pkg-${staticPkgTriple(arch, libc)}.tar.gz`;
}

/**
 * The release arch a container platform runs (no emulation): `linux/amd64` is x86_64,
 * `linux/arm64` aarch64; any other platform has no static release (82).
 */
export function containerArch(containerPlatform: string): ContainerArch {
  if (containerPlatform === "linux/amd64") return "x86_64";
  if (containerPlatform === "linux/arm64") return "aarch64";
  throw new PkgError(
    ExitCode.Unsupported,
    `no static pkg release for container platform ${containerPlatform}: container legs run on linux/amd64 or linux/arm64`,
  );
}
