import { ExitCode, PkgError } from "@pkg/common";
import { DESCRIPTION_TAG, PUBLISHED_SUMMARY_TAG, RESERVED_TAG_PREFIX } from "../media-types.js";
import {
  formatVersion,
  isPrerelease,
  MAX_TAG_LENGTH,
  matchVersion,
  type Version,
  withoutBuild,
} from "./grammar.js";

/** The spec's `build_timestamp`: what the primary tag appends to the version. */
export type BuildTimestamp = "datetime" | "date" | "none";

/** The rolling tag of the default variant's newest release. */
export const LATEST_TAG = "latest";

const variantPattern = /^[a-z][a-z0-9.]*$/;

/**
 * Checks a variant name (the spec's `^[a-z][a-z0-9.]*$`, `latest` reserved). Variant tags are
 * `<variant>-<version>`: a variant starts with a letter and holds no hyphen, a version starts with
 * a digit, so the first hyphen of a tag that starts with a letter always ends the prefix.
 */
export function checkVariantName(name: string): void {
  if (name === LATEST_TAG) throw new PkgError(ExitCode.Data, 'variant name "latest" is reserved');
  if (!variantPattern.test(name)) {
    throw new PkgError(
      ExitCode.Data,
      `invalid variant name ${JSON.stringify(name)}: expected ^[a-z][a-z0-9.]*$`,
    );
  }
}

/** The build suffix digits for a build at `at` (UTC), or undefined for `none`. */
export function buildStamp(mode: BuildTimestamp, at: Date): string | undefined {
  if (mode === "none") return undefined;
  const iso = at.toISOString(); // 2025-01-02T03:04:05.678Z
  const date = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}`;
  return mode === "date" ? date : `${date}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
}

/**
 * The tag a build is pushed under: `<version>_<YYYYMMDDHHMMSS>` (`datetime`), `<version>_<YYYYMMDD>`
 * (`date`) or the bare `<version>` (`none`), in UTC; pre-releases keep their identifier
 * (`1.2.3-rc1_20250101120000`); a non-default variant prefixes `<variant>-`.
 */
export function primaryTag(version: Version, mode: BuildTimestamp, at: Date, variant?: string): string {
  const stamp = buildStamp(mode, at);
  return versionTag(
    stamp === undefined ? withoutBuild(version) : { ...withoutBuild(version), build: stamp },
    variant,
  );
}

/** The version's own tag without build suffix (`1.2.3`, `1.2.3-rc1`, `debug-1.2.3`). */
export function exactTag(version: Version, variant?: string): string {
  return versionTag(withoutBuild(version), variant);
}

/**
 * The tags the cascade may point at a version, most specific first: the exact tag, then one tag
 * per shorter prefix of the numeric components (`1.2.3` -> `1.2`, `1`), then `latest` or, for a
 * non-default variant, the variant's name. A pre-release only ever takes its exact tag
 * (`1.2.3-rc1`): `1.2`, `1` and `latest` are what users type to mean "the current release".
 */
export function rollingTags(version: Version, variant?: string): string[] {
  const exact = exactTag(version, variant);
  if (isPrerelease(version)) return [exact];
  const tags = [exact];
  for (let length = version.release.length - 1; length >= 1; length--) {
    tags.push(seriesTag(version.release.slice(0, length), variant));
  }
  tags.push(seriesTag([], variant));
  return tags;
}

/** The rolling tag of a series: the numeric prefix, or `latest` / the variant name for the empty prefix. */
export function seriesTag(prefix: readonly string[], variant?: string): string {
  if (prefix.length === 0) return variant ?? LATEST_TAG;
  return withVariant(prefix.join("."), variant);
}

/** A version's tag as written, build suffix included; refuses a tag longer than OCI allows. */
export function versionTag(version: Version, variant?: string): string {
  const tag = withVariant(formatVersion(version), variant);
  if (tag.length > MAX_TAG_LENGTH) {
    throw new PkgError(
      ExitCode.Data,
      `tag ${tag} is longer than the ${MAX_TAG_LENGTH} characters OCI allows`,
    );
  }
  return tag;
}

function withVariant(text: string, variant: string | undefined): string {
  if (variant === undefined) return text;
  checkVariantName(variant);
  return `${variant}-${text}`;
}

/**
 * Refuses a tag reserved for the tools' own documents (`__pkg.desc`, `__pkg.published`, any
 * `__pkg.*`) as the tag of a package: a usage error (exit 64). Their writers use other paths.
 */
export function checkPackageTag(tag: string): void {
  if (tag.startsWith(RESERVED_TAG_PREFIX)) {
    throw new PkgError(
      ExitCode.Usage,
      `tag ${tag} is reserved: tags starting with ${RESERVED_TAG_PREFIX} hold the tools' own documents, not packages`,
    );
  }
}

/** What a tag of a package repository is, as far as its name tells. */
export type TagInfo =
  /** A build: `1.2.3_20250101120000`, `1.2.3_20250101`, `debug-1.2.3-rc1_20250101120000`. */
  | { kind: "primary"; tag: string; variant?: string; version: Version }
  /**
   * A version without build suffix and with three or more components or a pre-release
   * (`1.2.3`, `1.2.3-rc1`, `1.2.3.4`). It is also the rolling tag of the builds of that version,
   * and of the longer versions it prefixes.
   */
  | { kind: "exact"; tag: string; variant?: string; version: Version }
  /**
   * A series: `1.2`, `1` (`series` is the numeric prefix, `version` its reading as a version, for
   * repositories whose upstream publishes two-component versions), or `latest` / a variant's name
   * (`series` empty). A bare lowercase word is read as a variant's name.
   */
  | { kind: "rolling"; tag: string; variant?: string; series: readonly string[]; version?: Version }
  /** The description manifest, `__pkg.desc`. */
  | { kind: "description"; tag: string }
  /** pkg-mirror's summary of what is published, `__pkg.published`. */
  | { kind: "published-summary"; tag: string }
  /** A signature or other referrer in the tag scheme: `sha256-<hex>` (with cosign's `.sig`/`.att`/... suffix). */
  | { kind: "referrer"; tag: string; digest: string }
  | { kind: "other"; tag: string };

const referrerPattern = /^sha256-([0-9a-f]{64})(?:\.[a-z]+)?$/;

export function parseTag(tag: string): TagInfo {
  if (tag === DESCRIPTION_TAG) return { kind: "description", tag };
  if (tag === PUBLISHED_SUMMARY_TAG) return { kind: "published-summary", tag };
  const referrer = referrerPattern.exec(tag);
  if (referrer) return { kind: "referrer", tag, digest: `sha256:${referrer[1]}` };
  if (tag === LATEST_TAG) return { kind: "rolling", tag, series: [] };

  let variant: string | undefined;
  let rest = tag;
  if (/^[a-z]/.test(tag)) {
    const hyphen = tag.indexOf("-");
    variant = hyphen < 0 ? tag : tag.slice(0, hyphen);
    if (!variantPattern.test(variant) || variant === LATEST_TAG) return { kind: "other", tag };
    if (hyphen < 0) return { kind: "rolling", tag, variant, series: [] };
    rest = tag.slice(hyphen + 1);
  }
  const version = matchVersion(rest);
  if (typeof version === "string") return { kind: "other", tag };
  const scope = variant === undefined ? {} : { variant };
  if (version.build !== undefined) return { kind: "primary", tag, ...scope, version };
  if (isPrerelease(version) || version.release.length >= 3) return { kind: "exact", tag, ...scope, version };
  return { kind: "rolling", tag, ...scope, series: version.release, version };
}
