import { PLATFORM_ARCHITECTURES, PLATFORM_OSES, PLATFORM_VARIANTS } from "../spec/platform-values.js";

/*
 * Regular expressions (as JSON Schema pattern text, ECMA-262 without flags or lookaround) for the
 * grammars the mirror.yml loader checks: image and package references, hosts, versions, cron.
 */

/** An image whose name (registry and Docker Hub's `library/` aside) starts with one of `bases`. */
const imageOf = (bases: readonly string[]) =>
  `^((docker\\.io|index\\.docker\\.io)/(library/)?|library/|[^/]*[.:][^/]*/|localhost/)?(${bases.join("|")})`;
export const DEFAULT_SHELL_IMAGE = imageOf(["alpine", "ubuntu", "debian", "fedora", "rocky", "opensuse"]);
export const MUSL_IMAGE = imageOf(["alpine"]);
export const GLIBC_IMAGE = imageOf([
  "ubuntu",
  "debian",
  "fedora",
  "rocky",
  "opensuse",
  "centos",
  "almalinux",
  "oraclelinux",
  "amazonlinux",
  "archlinux",
  "redhat/ubi",
]);
export const CRON_CHARS = "[0-9A-Za-z*/, -]";
export const ENV_NAME = "[A-Z_][A-Z0-9_]*";

export const HOST_LABEL = "[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?";
/** A TCP port, 0 to 65535, in at most five digits. */
const PORT_NUMBER =
  "(0[0-9]{4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]|[0-9]{1,4})";
export const PORT = `(:${PORT_NUMBER})?`;
/** A registry host as a package reference starts with one: a dot, a port, `localhost` or `[v6]`. */
export const REFERENCE_HOST = `(${HOST_LABEL}(\\.${HOST_LABEL})+${PORT}|${HOST_LABEL}:${PORT_NUMBER}|localhost${PORT}|\\[[0-9A-Fa-f:.]+\\]${PORT})`;
const REPOSITORY_PART = "[a-z0-9]+((\\.|_|__|-+)[a-z0-9]+)*";
export const REPOSITORY = `${REPOSITORY_PART}(/${REPOSITORY_PART})*`;
export const TAG = ":[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}";
export const DIGEST = "@(sha256:[0-9a-f]{64}|sha512:[0-9a-f]{128})";

/** Each letter of `word` as a class of both cases: JSON Schema patterns take no flags. */
const caseless = (word: string) => [...word].map((c) => `[${c}${c.toUpperCase()}]`).join("");
const SEP = "[-_.]?";
/** A public PEP 440 version in any spelling packaging accepts, without a local part. */
export const PEP440 = [
  "^([0-9]+!)?[0-9]+(\\.[0-9]+)*",
  `(${SEP}(${["alpha", "a", "beta", "b", "preview", "pre", "c", "rc"].map(caseless).join("|")})${SEP}[0-9]*)?`,
  `(-[0-9]+|${SEP}(${["post", "rev", "r"].map(caseless).join("|")})${SEP}[0-9]*)?`,
  `(${SEP}${caseless("dev")}${SEP}[0-9]*)?$`,
].join("");

/** A first segment with a dot or a port, or `localhost`, is a forge host; otherwise a namespace. */
const FORGE_HOST = `(${HOST_LABEL}(\\.${HOST_LABEL})+(:[0-9]{1,5})?|${HOST_LABEL}:[0-9]{1,5}|localhost(:[0-9]{1,5})?)`;
const FORGE_SEGMENT = "[A-Za-z0-9_][A-Za-z0-9._-]*";
/** `[HOST/]NAMESPACE/PROJECT`, the namespace possibly nested. */
export const FORGE_COORDINATE = `^(${FORGE_HOST}/${FORGE_SEGMENT}|[A-Za-z0-9_][A-Za-z0-9_-]*)(/${FORGE_SEGMENT})+$`;

/** OCI (GOOS/GOARCH) values the loader takes, as alternations. */
export const PLATFORM_OS = `(${PLATFORM_OSES.join("|")})`;
export const PLATFORM_ARCH = `(${PLATFORM_ARCHITECTURES.join("|")})`;
/**
 * `<os>/<arch>[/<variant>]` with OCI's values, unanchored: the loader's lists, an architecture
 * taking only its own variants.
 */
export const PLATFORM_BASE = `${PLATFORM_OS}/(${PLATFORM_ARCHITECTURES.map((arch) => {
  const variants = PLATFORM_VARIANTS[arch] ?? [];
  return variants.length === 0 ? arch : `${arch}(/(${variants.join("|")}))?`;
}).join("|")})`;
