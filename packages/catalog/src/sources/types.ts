import type { IndexConfig } from "@pkg/index";
import type { LoadedPackage } from "@pkg/index/read";

export type { LoadedPackage };

/** One index source after reading: everything the site renders and mirrors. */
export interface LoadedIndex {
  /** The index's public name: explicit label, else derived from the package names. */
  label: string;
  /** Position of the source in `sources[]`. */
  sourceIndex: number;
  config: IndexConfig;
  packages: LoadedPackage[];
  /** Every index file read and verified, by index-relative path ("config.json", "c/index.json",
   *  "p/<ns>/<pkg>.json", "p/<ns>/<pkg>/o/sha256/<hex>.json", ...): mirrored byte for byte into the
   *  site. Skipped packages contribute nothing. */
  files: Map<string, Uint8Array>;
  /** One line per package or file skipped (bad digest, bad name, oversized, escaping link...). */
  warnings: string[];
}
