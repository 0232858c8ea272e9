import type { ImageIndex, PackageRoot } from "../types.js";

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
   *  in the walked index's `files` on each access (a getter, to keep memory low): read it once. */
  readme?: string;
  /** Logo blob (desc.logo), when present and verified; `ext` is "svg" or "png". */
  logo?: { digest: string; ext: "svg" | "png"; bytes: Uint8Array };
}
