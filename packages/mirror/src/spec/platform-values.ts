import type { PlatformKey } from "@pkg/package";
import { closest } from "./diagnostics.js";

/*
 * The values a platform key may name. The OCI image index says `os` and `architecture` SHOULD be
 * Go's GOOS and GOARCH values; these are the first-class ports of `go tool dist list` (Go 1.26).
 * `plan9` is one of them and stays valid. The variants are the ones the image-index spec lists
 * for ARM plus `arm/v5`; no other architecture takes one (the package tool never detects a
 * variant on another architecture, so such an entry would match no host).
 */
export const PLATFORM_OSES = [
  "aix",
  "android",
  "darwin",
  "dragonfly",
  "freebsd",
  "illumos",
  "ios",
  "js",
  "linux",
  "netbsd",
  "openbsd",
  "plan9",
  "solaris",
  "wasip1",
  "windows",
] as const;

export const PLATFORM_ARCHITECTURES = [
  "386",
  "amd64",
  "arm",
  "arm64",
  "loong64",
  "mips",
  "mips64",
  "mips64le",
  "mipsle",
  "ppc64",
  "ppc64le",
  "riscv64",
  "s390x",
  "wasm",
] as const;

/** The CPU variants each architecture takes; an architecture not listed takes none. */
export const PLATFORM_VARIANTS: Readonly<Record<string, readonly string[]>> = {
  arm: ["v5", "v6", "v7", "v8"],
  arm64: ["v8"],
};

/** Spellings release assets use for what OCI calls otherwise (no edit distance reaches them). */
const OS_ALIASES: Readonly<Record<string, string>> = {
  macos: "darwin",
  osx: "darwin",
  mac: "darwin",
  win: "windows",
  win32: "windows",
  win64: "windows",
};
const ARCH_ALIASES: Readonly<Record<string, { architecture: string; variant?: string }>> = {
  x64: { architecture: "amd64" },
  x8664: { architecture: "amd64" },
  aarch64: { architecture: "arm64" },
  arm64v8: { architecture: "arm64", variant: "v8" },
  armv5: { architecture: "arm", variant: "v5" },
  armv6: { architecture: "arm", variant: "v6" },
  armv7: { architecture: "arm", variant: "v7" },
  armhf: { architecture: "arm", variant: "v7" },
  i386: { architecture: "386" },
  i686: { architecture: "386" },
  x86: { architecture: "386" },
};

const has = (list: readonly string[], value: string) => list.includes(value);

/**
 * Why a key (already valid by the grammar) names an os, architecture or variant outside the OCI
 * values, with the key it probably means; undefined when every value is known.
 */
export function platformValueProblem(key: PlatformKey): string | undefined {
  const problems: string[] = [];
  let os = key.os;
  let architecture = key.architecture;
  let variant = key.variant;
  if (!has(PLATFORM_OSES, os)) {
    problems.push(`unknown os ${JSON.stringify(os)}`);
    os = OS_ALIASES[os] ?? closest(os, PLATFORM_OSES) ?? os;
  }
  if (!has(PLATFORM_ARCHITECTURES, architecture)) {
    problems.push(`unknown architecture ${JSON.stringify(architecture)}`);
    const alias = ARCH_ALIASES[architecture];
    architecture = alias?.architecture ?? closest(architecture, PLATFORM_ARCHITECTURES) ?? architecture;
    variant ??= alias?.variant;
  }
  const valuesNote = problems.length > 0 ? "; os and architecture are OCI (GOOS/GOARCH) values" : "";
  let guessable = true;
  if (key.variant !== undefined && has(PLATFORM_ARCHITECTURES, key.architecture)) {
    const allowed = PLATFORM_VARIANTS[key.architecture] ?? [];
    if (!has(allowed, key.variant)) {
      problems.push(
        allowed.length === 0
          ? `${key.architecture} takes no CPU variant, not ${JSON.stringify(key.variant)}`
          : `unknown ${key.architecture} variant ${JSON.stringify(key.variant)} (known: ${allowed.join(", ")})`,
      );
      // a variant-less key is the likely intent only where the architecture takes none
      if (allowed.length === 0) variant = undefined;
      else guessable = false;
    }
  }
  if (problems.length === 0) return undefined;
  const guess = guessable ? suggestion(os, architecture, variant, key.features) : undefined;
  return `${problems.join(", ")}${valuesNote}${guess === undefined ? "" : ` (did you mean ${guess}?)`}`;
}

/** The corrected key when every part of it is now a known value. */
function suggestion(
  os: string,
  architecture: string,
  variant: string | undefined,
  features: readonly string[],
): string | undefined {
  if (!has(PLATFORM_OSES, os) || !has(PLATFORM_ARCHITECTURES, architecture)) return undefined;
  if (variant !== undefined && !has(PLATFORM_VARIANTS[architecture] ?? [], variant)) return undefined;
  const base = [os, architecture, variant].filter((part) => part !== undefined).join("/");
  return features.length === 0 ? base : `${base}+${features.join(",")}`;
}
