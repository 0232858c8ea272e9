import type { PlanVersion } from "./plan-document.js";

/**
 * `prepared-<tag>.json`, written by `pipeline prepare` beside the bundles it built: what push
 * needs of the version without the plan. Written last, so its presence means the bundles it
 * lists are whole.
 */
export const PREPARED_SCHEMA_VERSION = 1;

export interface PreparedVersion {
  schema_version: typeof PREPARED_SCHEMA_VERSION;
  /** The plan entry the version was prepared from, as the plan gave it. */
  plan: PlanVersion;
  /** One per platform built, in the plan's order. */
  bundles: PreparedBundle[];
  /** Platforms whose preparation failed: they publish nothing and withhold the rolling tags. */
  failed: Array<{ platform: string; message: string }>;
}

export interface PreparedBundle {
  /** Full platform key. */
  platform: string;
  /** `platformSlug` of the key: the bundle's and metadata's file names use it. */
  platform_slug: string;
  /** File names, relative to the manifest's directory. */
  bundle: string;
  metadata: string;
  /** `sha256:<hex>` of the bundle file, and its size. */
  digest: string;
  size: number;
  /**
   * Environment packages (`pylock`/`pypi`): every layer in order, one per wheel; `bundle`,
   * `digest` and `size` then describe the first. Absent for archive and binary mirrors (one layer,
   * `bundle`).
   */
  layers?: PreparedLayer[];
}

/** One layer of an environment package, and the wheel it was repacked from. */
export interface PreparedLayer {
  /** File name, relative to the manifest's directory. */
  file: string;
  /** `sha256:<hex>` of the layer file, and its size. */
  digest: string;
  size: number;
  wheel: {
    /** The wheel's file name. */
    name: string;
    /** PEP 503 name of its distribution. */
    package: string;
    /** Where it was downloaded from (its host names the shared wheel layer's repository). */
    url: string;
    /** Hex sha256 of the wheel: the shared wheel layer's tag. */
    sha256: string;
  };
}
