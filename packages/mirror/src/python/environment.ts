/**
 * The PEP 508 marker environment of a target: CPython at `python.version` on the `os/arch` of a
 * `wheels` key. What a target does not fix (the kernel release and version) is empty text.
 */

import type { MarkerEnvironment } from "./markers.js";
import { normalizeName } from "./name.js";

const SYSTEMS: Record<string, { os_name: string; sys_platform: string; platform_system: string }> = {
  linux: { os_name: "posix", sys_platform: "linux", platform_system: "Linux" },
  darwin: { os_name: "posix", sys_platform: "darwin", platform_system: "Darwin" },
  windows: { os_name: "nt", sys_platform: "win32", platform_system: "Windows" },
};

/** `platform.machine()` per OS for an OCI architecture. */
export const MACHINES: Record<string, Record<string, string>> = {
  linux: {
    amd64: "x86_64",
    arm64: "aarch64",
    "386": "i686",
    arm: "armv7l",
    ppc64le: "ppc64le",
    s390x: "s390x",
    riscv64: "riscv64",
  },
  darwin: { amd64: "x86_64", arm64: "arm64" },
  windows: { amd64: "AMD64", arm64: "ARM64", "386": "x86" },
};

/**
 * The environment for `pythonVersion` (`3.11` or `3.11.7`) on `os`/`arch`, with the extras in
 * force (normalised; `extra` is the single one markers of core metadata test, `extras` the set a
 * PEP 751 lock's markers test).
 */
export function markerEnvironment(
  pythonVersion: string,
  os: string,
  arch: string,
  extras: readonly string[] = [],
): MarkerEnvironment {
  const parts = pythonVersion.split(".");
  const full = [...parts, "0", "0"].slice(0, Math.max(3, parts.length)).join(".");
  const system = SYSTEMS[os] ?? { os_name: "posix", sys_platform: os, platform_system: os };
  const normalizedExtras = extras.map(normalizeName);
  return {
    implementation_name: "cpython",
    implementation_version: full,
    platform_python_implementation: "CPython",
    python_version: parts.slice(0, 2).join("."),
    python_full_version: full,
    platform_machine: MACHINES[os]?.[arch] ?? arch,
    platform_release: "",
    platform_version: "",
    ...system,
    extra: normalizedExtras.length === 1 ? (normalizedExtras[0] as string) : new Set(normalizedExtras),
    extras: new Set(normalizedExtras),
    dependency_groups: new Set<string>(),
  };
}
