import { ExitCode, type Logger, PkgError } from "@pkg/common";
import { parseVersion as parsePackageVersion } from "@pkg/package";

/**
 * Whether a PEP 440 version (normal form) has a tag in the package version grammar, which tags,
 * orders and cascades every mirrored version: releases of one to four numbers. Pre-, post- and
 * development releases, epochs and local versions have none (their normal forms carry no `-`).
 */
export function hasPackageTag(version: string): boolean {
  try {
    parsePackageVersion(version);
    return true;
  } catch {
    return false;
  }
}

const GRAMMAR = "tags take releases of one to four numbers";

/** The versions with a tag form; the others are left out, said in one warning line unless
 *  `unwanted` anyway (pre-releases the spec skips). */
export function taggableVersions<T extends { version: string }>(
  versions: readonly T[],
  what: string,
  log: Logger,
  unwanted: (version: T) => boolean = () => false,
): T[] {
  const untaggable = versions.filter((v) => !hasPackageTag(v.version) && !unwanted(v));
  if (untaggable.length > 0) {
    const names = untaggable.map((v) => v.version);
    log.warn(
      `${what}: ${names.length} version${names.length === 1 ? "" : "s"} not mirrored, their PEP 440 forms having no tag (${GRAMMAR}): ${names.join(", ")}`,
    );
  }
  return versions.filter((v) => hasPackageTag(v.version));
}

/** The one version of a lock must have a tag form, else the source cannot be mirrored (65). */
export function checkTaggable(version: string, what: string): void {
  if (!hasPackageTag(version))
    throw new PkgError(
      ExitCode.Data,
      `${what}: version ${version} has no tag form (${GRAMMAR}); it cannot be mirrored`,
    );
}
