/**
 * Versions as the planner orders and bounds them. Every source's versions are of the package
 * version grammar (releases of one to four numbers, `-pre` identifiers), except a Python source's
 * PEP 440 versions that grammar cannot hold (`2.0.post1`, `2.1rc1`, `1.0.dev3`): those are ordered
 * and bounded by PEP 440, tagged `<version>_<build>` and published without the cascade.
 */
import { ExitCode, PkgError } from "@pkg/common";
import { compareVersions, inWindow, parseVersion, type Version } from "@pkg/package";
import * as pep440 from "../python/pep440.js";

/** The version in the package grammar, or undefined. */
export function packageVersion(text: string): Version | undefined {
  try {
    return parseVersion(text);
  } catch {
    return undefined;
  }
}

export function hasPackageTag(text: string): boolean {
  return packageVersion(text) !== undefined;
}

/**
 * Whether `text` is a PEP 440 version in normal form that the package grammar cannot hold and an
 * OCI tag can: no epoch (`!`) and no local part (`+`). Its builds are tagged `<text>_<build>`.
 */
export function isPep440Only(text: string): boolean {
  if (hasPackageTag(text) || text.includes("!") || text.includes("+")) return false;
  const parsed = pep440.parseVersion(text);
  return parsed !== undefined && pep440.formatVersion(parsed) === text;
}

function pep440Of(text: string): pep440.Pep440Version {
  const parsed = pep440.parseVersion(text);
  if (parsed !== undefined) return parsed;
  // neither grammar: the package grammar's own message
  parseVersion(text);
  throw new PkgError(ExitCode.Data, `invalid version ${JSON.stringify(text)}`);
}

/** Orders two versions: in the package grammar when both are of it, else by PEP 440. */
export function compareVersionTexts(a: string, b: string): number {
  const pa = packageVersion(a);
  const pb = packageVersion(b);
  if (pa !== undefined && pb !== undefined) return compareVersions(pa, pb);
  return pep440.compareVersions(pep440Of(a), pep440Of(b));
}

export interface TextWindow {
  min?: string | undefined;
  minInclusive: boolean;
  max?: string | undefined;
  maxInclusive: boolean;
}

/** Whether `text` lies in the window (bounds written in the package grammar). */
export function inTextWindow(text: string, window: TextWindow): boolean {
  const version = packageVersion(text);
  if (version !== undefined) {
    return inWindow(version, {
      ...(window.min === undefined ? {} : { min: parseVersion(window.min) }),
      minInclusive: window.minInclusive,
      ...(window.max === undefined ? {} : { max: parseVersion(window.max) }),
      maxInclusive: window.maxInclusive,
    });
  }
  if (window.min !== undefined) {
    const c = compareVersionTexts(text, window.min);
    if (c < 0 || (c === 0 && !window.minInclusive)) return false;
  }
  if (window.max !== undefined) {
    const c = compareVersionTexts(text, window.max);
    if (c > 0 || (c === 0 && !window.maxInclusive)) return false;
  }
  return true;
}
