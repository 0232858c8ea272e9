import { ExitCode, PkgError } from "@pkg/common";

/**
 * A package version as the tools read it from upstream and write it into tags.
 *
 * Grammar (documented for users in the same words):
 *
 *     <N>[.<N>[.<N>[.<N>]]][-<pre-release>]            a version, as given to the tools
 *     <version>_<YYYYMMDD> | <version>_<YYYYMMDDHHMMSS>  a build of it, only ever in a tag
 *
 * - One to four numeric components: `2`, `1.2`, `1.2.3`, `1.2.3.4`, calendar versions such as
 *   `2024.01.15`. Components are compared as numbers; leading zeros are allowed because calendar
 *   versions carry them, and the text is kept as written because tags must spell the version the
 *   way upstream does.
 * - A pre-release is `-` and dot-separated identifiers of letters, digits and hyphens (`-rc1`,
 *   `-beta.2`, `-rc-1`), as semver writes them.
 * - No leading `v` and no `+build` metadata: a source strips its tag prefix before the version
 *   reaches this grammar, and OCI tags cannot hold `+`.
 * - The build suffix is the tools' own: `parseVersion` refuses it (exit 65), because a version
 *   that already carries one would be tagged twice.
 */
export interface Version {
  /** Numeric components as written, one to four of them. */
  readonly release: readonly string[];
  /** Pre-release identifiers, absent for a release. */
  readonly prerelease?: readonly string[];
  /** Build suffix digits (`YYYYMMDD` or `YYYYMMDDHHMMSS`, UTC); only versions read from tags have one. */
  readonly build?: string;
}

export const MAX_RELEASE_COMPONENTS = 4;
/** The longest OCI tag; a version longer than this could never be tagged. */
export const MAX_TAG_LENGTH = 128;

const versionPattern =
  /^([0-9]+(?:\.[0-9]+)*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:_([0-9]{8}|[0-9]{14}))?$/;

/** Parses a version or explains in a few words why the text is not one. */
export function matchVersion(text: string): Version | string {
  if (text.length === 0) return "empty";
  if (text.length > MAX_TAG_LENGTH) return `longer than ${MAX_TAG_LENGTH} characters`;
  if (/^[vV][0-9]/.test(text)) return 'starts with "v"; give the version without its tag prefix';
  if (text.includes("+")) return 'contains "+"; build metadata is not part of a version';
  const match = versionPattern.exec(text);
  if (!match) return "expected <N>[.<N>[.<N>[.<N>]]][-<pre-release>]";
  const [, release = "", prerelease, build] = match;
  const components = release.split(".");
  if (components.length > MAX_RELEASE_COMPONENTS)
    return `has more than ${MAX_RELEASE_COMPONENTS} numeric components`;
  if (build !== undefined && !isValidBuildStamp(build))
    return `build suffix _${build} is not a valid UTC date and time`;
  return {
    release: components,
    ...(prerelease === undefined ? {} : { prerelease: prerelease.split(".") }),
    ...(build === undefined ? {} : { build }),
  };
}

/** Parses a version given to the tools (exit 65 when invalid or when it already carries a build suffix). */
export function parseVersion(text: string): Version {
  const result = matchVersion(text);
  if (typeof result === "string") {
    throw new PkgError(ExitCode.Data, `invalid version ${JSON.stringify(text)}: ${result}`);
  }
  if (result.build !== undefined) {
    throw new PkgError(
      ExitCode.Data,
      `version ${JSON.stringify(text)} already carries a build suffix (_${result.build}); give the version without it`,
    );
  }
  return result;
}

export function formatVersion(version: Version): string {
  const pre = version.prerelease === undefined ? "" : `-${version.prerelease.join(".")}`;
  const build = version.build === undefined ? "" : `_${version.build}`;
  return `${version.release.join(".")}${pre}${build}`;
}

export function isPrerelease(version: Version): boolean {
  return version.prerelease !== undefined;
}

/** The version without its build suffix: the version a build belongs to. */
export function withoutBuild(version: Version): Version {
  if (version.build === undefined) return version;
  const { build: _build, ...rest } = version;
  return rest;
}

/** `YYYYMMDD` or `YYYYMMDDHHMMSS` naming a real UTC instant. */
export function isValidBuildStamp(stamp: string): boolean {
  if (!/^[0-9]{8}(?:[0-9]{6})?$/.test(stamp)) return false;
  const field = (start: number, end: number) => Number(stamp.slice(start, end));
  const [year, month, day] = [field(0, 4), field(4, 6), field(6, 8)];
  const [hour, minute, second] =
    stamp.length === 14 ? [field(8, 10), field(10, 12), field(12, 14)] : [0, 0, 0];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second
  );
}
