import { ExitCode, PkgError } from "@pkg/common";

/** How blobs larger than one chunk go up: one streamed PATCH, or PATCH chunks of at most 3 MiB. */
export type UploadMode = "stream" | "chunked";

/**
 * The upload mode: the option when given, else `PKG_REGISTRY_UPLOAD` (`chunked` for registries
 * behind proxies that refuse large requests), else `stream`.
 */
export function resolveUploadMode(option: UploadMode | undefined, env: NodeJS.ProcessEnv): UploadMode {
  if (option !== undefined) return option;
  const value = env.PKG_REGISTRY_UPLOAD?.trim().toLowerCase();
  if (!value) return "stream";
  if (value === "stream" || value === "chunked") return value;
  throw new PkgError(
    ExitCode.Usage,
    `PKG_REGISTRY_UPLOAD must be "stream" or "chunked", not "${env.PKG_REGISTRY_UPLOAD}"`,
  );
}
