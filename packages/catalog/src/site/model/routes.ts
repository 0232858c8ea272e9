import { dataError } from "@pkg/common";

/** A path segment that is safe as a directory name on every system and in a URL without escaping. */
const segmentPattern = /^[A-Za-z0-9_][A-Za-z0-9._+-]*$/;

export function isSafeSegment(segment: string): boolean {
  return segmentPattern.test(segment) && segment !== "." && segment !== ".." && !segment.includes("..");
}

/** `<ns>/<pkg>` (or any number of segments) with every segment safe. */
export function isSafePackagePath(path: string): boolean {
  const segments = path.split("/");
  return segments.length > 0 && segments.every(isSafeSegment);
}

/** Root-source packages live at `/<ns>/<pkg>/`, every other index's under its own name. */
export function packageRoute(label: string, path: string, root: boolean): string {
  return root ? `/${path}/` : `/${label}/${path}/`;
}

export function indexRoute(label: string): string {
  return `/index/${label}/`;
}

export const allRoute = "/all/";
export const assetsDir = "assets";
export const catalogJsonRoute = "/catalog.json";

/**
 * Claims on the top-level names of the site. Two different claimants of one name is a route collision:
 * the build fails with one line naming both rather than letting one overwrite the other.
 */
export class TopLevelClaims {
  private readonly owners = new Map<string, string>();

  claim(name: string, owner: string): void {
    const previous = this.owners.get(name);
    if (previous !== undefined && previous !== owner) {
      throw dataError(`route collision: /${name} is claimed by ${previous} and by ${owner}`);
    }
    this.owners.set(name, owner);
  }
}

export { basedLinks, relativeLinks, type SiteLink } from "./site-links.js";
