import { type BuildTimestamp, parseVersion, primaryTag } from "@pkg/package";

/**
 * The tag a build of upstream `version` is pushed under, per `build_timestamp` (UTC at `at`),
 * pre-release identifiers kept, a non-default variant as prefix. A version that already carries a
 * build suffix (`1.2.3_20250101`) is refused with exit 65: its build would be tagged twice.
 */
export function primaryTagFor(
  version: string,
  buildTimestamp: BuildTimestamp,
  at: Date,
  variant?: string,
): string {
  return primaryTag(parseVersion(version), buildTimestamp, at, variant);
}
