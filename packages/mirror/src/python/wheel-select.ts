/**
 * Which locked wheel a `wheels` key publishes for each package of a lock: PEP 425 compatibility
 * with CPython `python.version`/`python.abi` on the key's os/arch (and declared libc), then the
 * key's platform-tag prefix filter (earlier prefixes rank higher; the filter never re-admits an
 * incompatible wheel). A package the target needs (its marker holds) with no admitted wheel fails
 * closed (exit 65). Also the checks a selected wheel passes: its bytes against the lock's hash, its
 * ABI against `python.abi`.
 */
import { createHash } from "node:crypto";
import { ExitCode, PkgError } from "@pkg/common";
import { MACHINES, markerEnvironment } from "./environment.js";
import { markerHolds } from "./markers.js";
import type { LockedFile, LockedPackage, Pylock } from "./pylock.js";
import { parseWheelFilename, supportedTags, type WheelTag } from "./tags.js";

export interface WheelTarget {
  /** The `wheels` key as written (for messages). */
  key: string;
  os: string;
  /** OCI architecture (`amd64`, `arm64`). */
  arch: string;
  /** The key's declared libc; absent for a plain key. */
  libc?: "glibc" | "musl";
  /** Platform-tag prefixes, best first (the key's value or its class default). */
  filter: readonly string[];
  /** `python.version`. */
  pythonVersion: string;
  /** `python.abi`. */
  abi: string;
  /** `python.lock.extras` (what the lock's markers test). */
  extras?: readonly string[];
}

export interface SelectedWheel {
  package: LockedPackage;
  wheel: LockedFile;
}

const MAC_MACHINES: Record<string, readonly string[]> = {
  amd64: ["x86_64", "intel", "universal2", "universal"],
  arm64: ["arm64", "universal2"],
};
const WINDOWS_PLATFORMS: Record<string, string> = { amd64: "win_amd64", arm64: "win_arm64", "386": "win32" };

/**
 * Whether a wheel's platform tag runs on the target: `any` everywhere; on Linux `manylinux*`
 * (glibc, legacy aliases included), `musllinux*` (musl) and `linux_<machine>` for the machine, a
 * declared libc admitting only its own family (and `linux_*`, which names none); macOS
 * `macosx_*_<machine>` (universal builds included); Windows the architecture's `win*` tag.
 */
export function platformTagRuns(
  platform: string,
  target: Pick<WheelTarget, "os" | "arch" | "libc">,
): boolean {
  if (platform === "any") return true;
  if (target.os === "linux") {
    const machine = MACHINES.linux?.[target.arch] ?? target.arch;
    if (!platform.endsWith(`_${machine}`)) return false;
    if (/^manylinux(?:1|2010|2014|_\d+_\d+)_/.test(platform)) return target.libc !== "musl";
    if (/^musllinux_\d+_\d+_/.test(platform)) return target.libc !== "glibc";
    return platform === `linux_${machine}`;
  }
  if (target.os === "darwin") {
    const m = /^macosx_\d+_\d+_(.+)$/.exec(platform);
    return m !== null && (MAC_MACHINES[target.arch] ?? []).includes(m[1] as string);
  }
  if (target.os === "windows") return platform === WINDOWS_PLATFORMS[target.arch];
  return false;
}

/** The interpreter-abi pairs CPython accepts, best first (`cp311-cp311`, `cp311-abi3`, …, `py3-none`). */
function interpreterRanks(target: WheelTarget): Map<string, number> {
  const [major, minor] = target.pythonVersion.split(".").map(Number) as [number, number];
  const ranks = new Map<string, number>();
  for (const tag of supportedTags([major, minor], target.abi, ["P"])) {
    const pair = tag.slice(0, tag.lastIndexOf("-"));
    if (!ranks.has(pair)) ranks.set(pair, ranks.size);
  }
  return ranks;
}

/** [filter position, interpreter-abi rank] of a tag, or undefined when the tag is not admitted. */
function tagRank(
  tag: WheelTag,
  target: WheelTarget,
  ranks: Map<string, number>,
): [number, number] | undefined {
  const pair = ranks.get(`${tag.interpreter}-${tag.abi}`);
  if (pair === undefined || !platformTagRuns(tag.platform, target)) return undefined;
  const position = target.filter.findIndex((prefix) => tag.platform.startsWith(prefix));
  return position === -1 ? undefined : [position, pair];
}

/**
 * The wheel of `pkg` the target publishes: the admitted wheel of best rank (filter position, then
 * interpreter/ABI preference), the lock's order breaking ties; undefined when none is admitted.
 */
export function bestWheel(pkg: LockedPackage, target: WheelTarget): LockedFile | undefined {
  const ranks = interpreterRanks(target);
  let best: { wheel: LockedFile; rank: [number, number] } | undefined;
  for (const wheel of pkg.wheels) {
    const parsed = parseWheelFilename(wheel.name);
    if (!parsed) continue;
    for (const tag of parsed.tags) {
      const rank = tagRank(tag, target, ranks);
      if (rank && (!best || rank[0] < best.rank[0] || (rank[0] === best.rank[0] && rank[1] < best.rank[1]))) {
        best = { wheel, rank };
      }
    }
  }
  return best?.wheel;
}

/**
 * The wheel of every package the target needs (its marker holds in the target's environment), in
 * the lock's order. A needed package without an admitted wheel is exit 65 naming the key, the
 * package and the wheels it has.
 */
export function selectWheels(lock: Pylock, target: WheelTarget): SelectedWheel[] {
  const env = markerEnvironment(target.pythonVersion, target.os, target.arch, target.extras ?? []);
  const selected: SelectedWheel[] = [];
  for (const pkg of lock.packages) {
    if (!markerHolds(pkg.marker, env)) continue;
    const wheel = bestWheel(pkg, target);
    if (!wheel) {
      const has = pkg.wheels.map((w) => w.name).join(", ") || "no wheel";
      const label = pkg.version === undefined ? pkg.name : `${pkg.name} ${pkg.version}`;
      throw new PkgError(
        ExitCode.Data,
        `wheels ${target.key}: no wheel of ${label} is compatible with CPython ${target.pythonVersion} (${target.abi}) and the filter [${target.filter.join(", ")}] (it has ${has})`,
      );
    }
    selected.push({ package: pkg, wheel });
  }
  return selected;
}

const HASH_STRENGTH = ["sha512", "sha384", "sha256"] as const;

/**
 * The wheel's bytes against the strongest hash the lock records for it (sha512, sha384, sha256);
 * a mismatch, or a lock recording none of them, is exit 65.
 */
export function checkLockedHash(wheel: LockedFile, bytes: Uint8Array): void {
  const algorithm = HASH_STRENGTH.find((a) => wheel.hashes[a] !== undefined);
  if (algorithm === undefined) {
    throw new PkgError(
      ExitCode.Data,
      `${wheel.name}: the lock records no sha256, sha384 or sha512 hash (${Object.keys(wheel.hashes).join(", ")})`,
    );
  }
  const actual = createHash(algorithm).update(bytes).digest("hex");
  if (actual !== wheel.hashes[algorithm]) {
    throw new PkgError(
      ExitCode.Data,
      `${wheel.name}: ${algorithm} ${actual} does not match the lock's ${wheel.hashes[algorithm]}`,
    );
  }
}

/**
 * A compiled wheel's ABI must be `python.abi`, `abi3` or `none`: the wheel passes when one of its
 * tags carries one of those; else exit 65 (checked again at compose, whatever selected it).
 */
export function checkWheelAbi(wheelName: string, abi: string): void {
  const parsed = parseWheelFilename(wheelName);
  if (!parsed) throw new PkgError(ExitCode.Data, `${wheelName} is not a wheel file name (PEP 427)`);
  if (parsed.tags.some((tag) => tag.abi === abi || tag.abi === "abi3" || tag.abi === "none")) return;
  const abis = [...new Set(parsed.tags.map((tag) => tag.abi))].join(", ");
  throw new PkgError(ExitCode.Data, `${wheelName}: ABI ${abis} is not python.abi ${abi}, abi3 or none`);
}
