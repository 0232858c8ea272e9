import { formatVersion, type Version } from "./grammar.js";

/**
 * The total order of versions, oldest first:
 * 1. numeric components, compared as numbers, a missing component counting as 0 (`1.9 < 1.10`);
 * 2. on a numeric tie, fewer components first (`1.2 < 1.2.0`): the tag `1.2` then names the
 *    newest of the `1.2` series, never the other way round;
 * 3. a pre-release before its release (`1.2.3-rc1 < 1.2.3`); pre-releases compare identifier by
 *    identifier as semver does: numeric ones as numbers and below alphanumeric ones, alphanumeric
 *    ones in ASCII order, a shorter list first when one is a prefix of the other;
 * 4. the build suffix, chronologically: no suffix first, a date counts as midnight of that day
 *    and sorts before a date-time at the same instant;
 * 5. the text, so that two spellings of one number (`1.02` and `1.2`) are still ordered and 0 is
 *    returned only for identical versions.
 */
export function compareVersions(a: Version, b: Version): number {
  return (
    compareRelease(a.release, b.release) ||
    sign(a.release.length - b.release.length) ||
    comparePrerelease(a.prerelease, b.prerelease) ||
    compareBuild(a.build, b.build) ||
    compareText(formatVersion(a), formatVersion(b))
  );
}

function compareRelease(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const order = compareNumeric(a[i] ?? "0", b[i] ?? "0");
    if (order !== 0) return order;
  }
  return 0;
}

function comparePrerelease(a: readonly string[] | undefined, b: readonly string[] | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const order = compareIdentifier(a[i] ?? "", b[i] ?? "");
    if (order !== 0) return order;
  }
  return sign(a.length - b.length);
}

function compareIdentifier(a: string, b: string): number {
  const aNumeric = /^[0-9]+$/.test(a);
  const bNumeric = /^[0-9]+$/.test(b);
  if (aNumeric && bNumeric) return compareNumeric(a, b);
  if (aNumeric !== bNumeric) return aNumeric ? -1 : 1;
  return compareText(a, b);
}

function compareBuild(a: string | undefined, b: string | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? -1 : 1;
  return compareText(a.padEnd(14, "0"), b.padEnd(14, "0")) || sign(a.length - b.length);
}

/** Digit strings of any length, as numbers. */
function compareNumeric(a: string, b: string): number {
  const x = a.replace(/^0+(?=.)/, "");
  const y = b.replace(/^0+(?=.)/, "");
  return sign(x.length - y.length) || compareText(x, y);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sign(n: number): number {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}
