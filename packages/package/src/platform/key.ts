import { ExitCode, PkgError } from "@pkg/common";

/**
 * A platform key, the spec's `<os>/<arch>[/<variant>][+libc.<flavor>[,...]]`, parsed:
 * `linux/amd64`, `linux/arm/v7`, `linux/amd64+libc.musl`, `darwin/arm64`.
 *
 * - os, architecture and variant are lowercase letters and digits (OCI's values: `amd64`,
 *   `arm64`, `v7`); a variant named `glibc` or `musl` is refused, it would be a libc written
 *   in the wrong place (and would make slugs ambiguous).
 * - Features follow `+`, comma-separated. The only namespace is `libc`, flavors `glibc` and `musl`,
 *   at most one of them, and only on `linux` keys. They become the index entry's `os.features`.
 * - `key` is the canonical spelling (features sorted): the identity used everywhere a key is
 *   compared or stored.
 */
export interface PlatformKey {
  readonly key: string;
  readonly os: string;
  readonly architecture: string;
  readonly variant?: string;
  /** `os.features` entries, sorted: `["libc.musl"]`, or empty for no libc requirement. */
  readonly features: readonly string[];
}

export const LIBC_FLAVORS = ["glibc", "musl"] as const;
export type LibcFlavor = (typeof LIBC_FLAVORS)[number];

const keyPattern = /^([^/+]*)\/([^/+]*)(?:\/([^/+]*))?(?:\+(.*))?$/;
const segmentPattern = /^[a-z0-9]+$/;

/** Parses a key or explains in a few words why the text is not one. */
export function matchPlatformKey(text: string): PlatformKey | string {
  const match = keyPattern.exec(text);
  if (!match) return "expected <os>/<arch>[/<variant>][+libc.<flavor>]";
  const [, os = "", architecture = "", variant, featureList] = match;
  for (const [name, value] of [
    ["os", os],
    ["architecture", architecture],
    ["variant", variant],
  ] as const) {
    if (value === undefined) continue;
    if (value.length === 0) return `${name} is empty`;
    if (!segmentPattern.test(value)) return `${name} "${value}" must be lowercase letters and digits`;
  }
  if (variant !== undefined && (LIBC_FLAVORS as readonly string[]).includes(variant)) {
    return `"${variant}" is a libc, not a CPU variant: write ${os}/${architecture}+libc.${variant}`;
  }
  const features = featureList === undefined ? [] : parseFeatures(featureList, os);
  if (typeof features === "string") return features;
  const base = variant === undefined ? `${os}/${architecture}` : `${os}/${architecture}/${variant}`;
  return {
    key: features.length === 0 ? base : `${base}+${features.join(",")}`,
    os,
    architecture,
    ...(variant === undefined ? {} : { variant }),
    features,
  };
}

function parseFeatures(list: string, os: string): string[] | string {
  if (list.length === 0) return 'nothing follows "+"';
  const features = list.split(",");
  const flavors: string[] = [];
  for (const feature of features) {
    const [namespace, flavor, ...more] = feature.split(".");
    if (namespace !== "libc" || flavor === undefined || more.length > 0) {
      return `unknown feature "${feature}" (known: libc.glibc, libc.musl)`;
    }
    if (!(LIBC_FLAVORS as readonly string[]).includes(flavor)) {
      return `unknown libc flavor "${flavor}" (known: glibc, musl)`;
    }
    if (flavors.includes(flavor)) return `libc.${flavor} is given twice`;
    flavors.push(flavor);
  }
  if (flavors.length > 1) return "declares both glibc and musl; a build has one libc, publish two keys";
  if (os !== "linux") return `a libc is only declared on linux keys, not on ${os}`;
  return features.sort();
}

/**
 * Parses a platform key. A bad key is a usage error (exit 64) where it comes from the command line;
 * readers of spec files pass `ExitCode.Data` (65).
 */
export function parsePlatformKey(text: string, exitCode: ExitCode = ExitCode.Usage): PlatformKey {
  const result = matchPlatformKey(text);
  if (typeof result === "string") {
    throw new PkgError(exitCode, `invalid platform key ${JSON.stringify(text)}: ${result}`);
  }
  return result;
}

/** The libc a key declares, if any. */
export function libcOf(key: PlatformKey): LibcFlavor | undefined {
  const feature = key.features.find((f) => f.startsWith("libc."));
  return feature === undefined ? undefined : (feature.slice("libc.".length) as LibcFlavor);
}

/**
 * A key as a file-name and identifier-safe word: `linux-amd64`, `linux-arm-v7`,
 * `linux-amd64-musl`, `linux-amd64-glibc`. One slug per key (a variant never spells a libc).
 */
export function platformSlug(key: PlatformKey): string {
  const libc = libcOf(key);
  return [key.os, key.architecture, key.variant, libc].filter((part) => part !== undefined).join("-");
}
