import { ExitCode, type Logger, PkgError } from "@pkg/common";
import { hasPackageTag, isPep440Only } from "../plan/version-order.js";

/**
 * Whether a PEP 440 version (normal form) can be published: tagged in the package version grammar
 * (releases of one to four numbers), or as itself (pre-, post- and development releases, pushed
 * without the cascade). An epoch (`1!2.0`) or a local part (`2.0+local`) is no tag.
 */
export function isPublishable(version: string): boolean {
  return hasPackageTag(version) || isPep440Only(version);
}

const WHY = "an epoch or a local part has no tag form";

/** The publishable versions; the others are left out, said in one warning line unless `unwanted`
 *  anyway (pre-releases the spec skips). */
export function taggableVersions<T extends { version: string }>(
  versions: readonly T[],
  what: string,
  log: Logger,
  unwanted: (version: T) => boolean = () => false,
): T[] {
  const untaggable = versions.filter((v) => !isPublishable(v.version) && !unwanted(v));
  if (untaggable.length > 0) {
    const names = untaggable.map((v) => v.version);
    log.warn(
      `${what}: ${names.length} version${names.length === 1 ? "" : "s"} not mirrored (${WHY}): ${names.join(", ")}`,
    );
  }
  return versions.filter((v) => isPublishable(v.version));
}

/** The one version of a lock must be publishable, else the source cannot be mirrored (65). */
export function checkTaggable(version: string, what: string): void {
  if (!isPublishable(version))
    throw new PkgError(ExitCode.Data, `${what}: version ${version} cannot be mirrored (${WHY})`);
}
