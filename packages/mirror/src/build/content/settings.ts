import { ExitCode } from "@pkg/common";
import { parsePlatformKey } from "@pkg/package";
import { type BinScan, DEFAULT_BIN_SCAN } from "../../spec/bin-scan.js";
import type { MetadataPaths } from "../../spec/metadata.js";
import type { MirrorSpec } from "../../spec/mirror-spec.js";

/** The spec keys that shape a package's content, each of which a variant may override. */
export type ContentKeys = Pick<MirrorSpec, "metadata" | "bin_scan" | "libc_lint">;

/** The content settings one asset set builds with. */
export interface ContentSettings {
  metadata: MetadataPaths | undefined;
  binScan: BinScan;
  libcLint: boolean;
}

/**
 * A variant's own value where it gives one, else the top-level value, else the spec's default.
 * `variant` is undefined for a spec with top-level `assets`.
 */
export function contentSettings(spec: ContentKeys, variant: ContentKeys | undefined): ContentSettings {
  return {
    metadata: variant?.metadata ?? spec.metadata,
    binScan: variant?.bin_scan ?? spec.bin_scan ?? DEFAULT_BIN_SCAN,
    libcLint: variant?.libc_lint ?? spec.libc_lint ?? true,
  };
}

/** The metadata path (as written, relative to the spec directory) that applies to `platform`. */
export function metadataPathFor(paths: MetadataPaths | undefined, platform: string): string | undefined {
  if (paths === undefined) return undefined;
  const { key } = parsePlatformKey(platform, ExitCode.Data);
  return paths.platforms[key] ?? paths.default;
}
