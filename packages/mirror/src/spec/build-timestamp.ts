import type { BuildTimestamp } from "@pkg/package";
import type { Field } from "./field.js";

export type { BuildTimestamp };

export const BUILD_TIMESTAMPS = ["datetime", "date", "none"] as const satisfies readonly BuildTimestamp[];

/** What an absent `build_timestamp` means. */
export const DEFAULT_BUILD_TIMESTAMP: BuildTimestamp = "datetime";

/** `build_timestamp`: what the primary tag appends to the version. */
export function readBuildTimestamp(field: Field): BuildTimestamp | undefined {
  return field.oneOf(BUILD_TIMESTAMPS);
}
