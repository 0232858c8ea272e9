import { ExitCode, PkgError } from "@pkg/common";
import type { Platform } from "@pkg/oci";
import { hostLibc } from "./host-libc.js";
import { type LibcFlavor, libcOf, parsePlatformKey } from "./key.js";

/** The machine a package is pulled for. */
export interface HostPlatform {
  os: string;
  architecture: string;
  /** CPU variant (`v7`, `v8`), when known. */
  variant?: string;
  /** The host's C library on Linux; absent where there is none to speak of or it is unknown. */
  libc?: LibcFlavor;
  /**
   * The libc was named in the platform key (`+libc.musl`): only an entry declaring exactly it is
   * taken, not one for every libc.
   */
  libcRequired?: boolean;
}

/**
 * Whether an index entry can run on the host: same os and architecture; a variant, when the entry
 * names one, equal to the host's; every `os.features` entry satisfied (`libc.glibc` only on a
 * glibc host, `libc.musl` only on a musl host, any other feature never). An entry without
 * `os.features` resolves on any host of its os and architecture.
 */
export function matchesHost(platform: Platform, host: HostPlatform): boolean {
  if (platform.os !== host.os || platform.architecture !== host.architecture) return false;
  if (platform.variant && platform.variant !== host.variant) return false;
  return (platform["os.features"] ?? []).every(
    (feature) => host.libc !== undefined && feature === `libc.${host.libc}`,
  );
}

/**
 * The entry to pull for the host. A host whose key named no libc asks for its own libc: an entry
 * without `os.features` (it runs on every libc) first, else the one declaring the host's libc.
 * A key that named one (`libcRequired`) takes only an entry declaring exactly that libc. Within
 * either, an entry naming the host's CPU variant goes before one naming none; the first in index
 * order on a tie. Entries without a platform are portable builds, taken only when no entry
 * matches.
 */
export function selectPlatformEntry<T extends { platform?: Platform }>(
  entries: readonly T[],
  host: HostPlatform,
): T | undefined {
  let best: T | undefined;
  let bestScore = -1;
  for (const entry of entries) {
    const score = entry.platform === undefined ? 0 : rank(entry.platform, host);
    if (score > bestScore) {
      best = entry;
      bestScore = score;
    }
  }
  return best;
}

/** How well an entry fits the host, higher is better; -1 when it does not. */
function rank(platform: Platform, host: HostPlatform): number {
  if (!matchesHost(platform, host)) return -1;
  const everyLibc = (platform["os.features"] ?? []).length === 0;
  if (everyLibc && host.libcRequired) return -1;
  return 1 + (everyLibc ? 2 : 0) + (platform.variant ? 1 : 0);
}

const nodeArchitectures: Record<string, string> = {
  x64: "amd64",
  arm64: "arm64",
  arm: "arm",
  ia32: "386",
  ppc64: "ppc64le",
  s390x: "s390x",
  riscv64: "riscv64",
  loong64: "loong64",
};

/** The host this process runs on, in OCI's words; `libc` overrides the detected C library. */
export function detectHostPlatform(libc?: LibcFlavor): HostPlatform {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const architecture = nodeArchitectures[process.arch] ?? process.arch;
  const host: HostPlatform = { os, architecture };
  if (architecture === "arm64") host.variant = "v8";
  if (architecture === "arm") {
    const armVersion = (process.config.variables as Record<string, unknown>).arm_version;
    if (typeof armVersion === "string" || typeof armVersion === "number") host.variant = `v${armVersion}`;
  }
  if (os === "linux") host.libc = libc ?? hostLibc();
  return host;
}

/** The C library of the machine this process runs on: undefined off Linux. */
export function runningLibc(): LibcFlavor | undefined {
  return process.platform === "linux" ? hostLibc() : undefined;
}

/**
 * The host a platform key describes, for pulling another machine's package (`--platform`). A key
 * with `+libc.<flavor>` asks for exactly that libc (`libcRequired`); a Linux key without one asks
 * for the host's: `libc` (`--libc`) when given, else this machine's (`detectLibc`). A bad key, or a
 * `libc` that contradicts the key's, is a usage error (exit 64).
 */
export function hostFromPlatformKey(
  text: string,
  libc?: LibcFlavor,
  detectLibc: () => LibcFlavor | undefined = runningLibc,
): HostPlatform {
  const key = parsePlatformKey(text);
  const declared = libcOf(key);
  if (declared !== undefined && libc !== undefined && declared !== libc) {
    throw new PkgError(ExitCode.Usage, `platform ${key.key} declares ${declared}, but --libc says ${libc}`);
  }
  const host: HostPlatform = { os: key.os, architecture: key.architecture };
  if (key.variant !== undefined) host.variant = key.variant;
  const flavor = declared ?? libc ?? (key.os === "linux" ? detectLibc() : undefined);
  if (flavor !== undefined) host.libc = flavor;
  if (declared !== undefined) host.libcRequired = true;
  return host;
}

/**
 * The host a package's dependencies resolve for: a libc the tested key declared stays preferred
 * but is not required of them (a dependency without a libc tag serves every libc).
 */
export function dependencyHost(host: HostPlatform): HostPlatform {
  const { libcRequired: _required, ...rest } = host;
  return rest;
}

/**
 * A host as people read it: `linux/amd64 (host libc glibc)`, `linux/amd64+libc.musl` for a key
 * that named its libc, `darwin/arm64`.
 */
export function formatHost(host: HostPlatform): string {
  const base = `${host.os}/${host.architecture}${host.variant ? `/${host.variant}` : ""}`;
  if (host.libc === undefined) return base;
  return host.libcRequired ? `${base}+libc.${host.libc}` : `${base} (host libc ${host.libc})`;
}
