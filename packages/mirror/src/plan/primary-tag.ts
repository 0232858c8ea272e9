import { type BuildTimestamp, buildStamp, parseVersion, primaryTag } from "@pkg/package";
import { isPep440Only } from "./version-order.js";

/**
 * The tag a build of upstream `version` is pushed under, per `build_timestamp` (UTC at `at`),
 * pre-release identifiers kept, a non-default variant as prefix. A version that already carries a
 * build suffix (`1.2.3_20250101`) is refused with exit 65: its build would be tagged twice. A
 * PEP 440 version the package grammar cannot hold is tagged `<version>_<build>` the same way.
 */
export function primaryTagFor(
  version: string,
  buildTimestamp: BuildTimestamp,
  at: Date,
  variant?: string,
): string {
  if (variant === undefined && isPep440Only(version)) {
    const stamp = buildStamp(buildTimestamp, at);
    return stamp === undefined ? version : `${version}_${stamp}`;
  }
  return primaryTag(parseVersion(version), buildTimestamp, at, variant);
}
