import type { Logger } from "@pkg/common";
import type { Metadata } from "@pkg/package";
import { applyBinScan } from "./binary-scan.js";
import { applyExecutableBits } from "./executable-bits.js";
import { lintLibc } from "./libc-lint.js";
import type { ContentSettings } from "./settings.js";
import type { BuildSubject } from "./subject.js";

export interface PrepareContentOptions extends BuildSubject {
  /** The extracted package content (what `${installPath}` will be). */
  tree: string;
  /** The selected metadata (see `selectMetadata`). */
  metadata: Metadata;
  platform: string;
  settings: Pick<ContentSettings, "binScan" | "libcLint">;
  log?: Logger;
}

export interface PreparedContent {
  /** The metadata to bundle: `binaries` filled by the scan where it applies. */
  metadata: Metadata;
  /** Files given mode 0755, relative to the tree. */
  madeExecutable: string[];
}

/**
 * Readies an extracted tree for bundling, in the spec's order: executable bits for declared
 * binaries (not under `bin_scan: verify`, which checks them instead), then the `binaries` claim,
 * then the libc lint. Throws a PkgError that fails this (version, platform) only.
 */
export async function prepareContent(options: PrepareContentOptions): Promise<PreparedContent> {
  const { tree, platform, settings } = options;
  const subject = { target: options.target, version: options.version };
  const madeExecutable =
    settings.binScan === "verify" ? [] : await applyExecutableBits(tree, options.metadata);
  const metadata = await applyBinScan(settings.binScan, tree, options.metadata, platform, subject);
  await lintLibc(tree, metadata, platform, {
    ...subject,
    enabled: settings.libcLint,
    ...(options.log === undefined ? {} : { log: options.log }),
  });
  return { metadata, madeExecutable };
}
