import type { ImageIndex, IndexConfig, PackageRoot } from "@pkg/index";

/** One package of an index, read and verified. */
export interface LoadedPackage {
  /** Full name `<label>/<ns>/<pkg>` as the root states it. */
  name: string;
  /** `<ns>/<pkg>`: the key in `c/index.json` and the route below the index. */
  path: string;
  root: PackageRoot;
  /** Image indexes referenced by the root's tags that could be read, by digest (`sha256:<hex>`). */
  imageIndexes: Map<string, ImageIndex>;
  /** README Markdown (desc.readme), when present, verified and valid UTF-8. Decoded from the bytes
   *  in `LoadedIndex.files` on each access (a getter, to keep memory low): read it once. */
  readme?: string;
  /** Logo blob (desc.logo), when present and verified; `ext` is "svg" or "png". */
  logo?: { digest: string; ext: "svg" | "png"; bytes: Uint8Array };
}

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
