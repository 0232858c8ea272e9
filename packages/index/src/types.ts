/** The package index wire format (DESIGN.md "The index"; JSON Schemas in
 *  shared/fixtures/index-schema/). Digests are `sha256:<64 lowercase hex>`. */

/** `/config.json` */
export interface IndexConfig {
  format_version: number;
  /** Segments of a package name below the index's own label; 2 (`<ns>/<pkg>`) when absent. */
  name_segments?: number;
}

/** `/c/index.json`: package path `<ns>/<pkg>` to the digest of its root file's exact bytes. */
export interface CatalogIndex {
  format_version: number;
  packages: Record<string, string>;
}

export interface Owner {
  github: string;
  github_id: number;
}

export interface Upstream {
  org: string;
  repository_url?: string;
  disclaimer?: string | null;
}

export interface Description {
  digest: string;
  title: string;
  description?: string;
  keywords?: string[];
  /** Digest of `o/sha256/<hex>.md`. */
  readme?: string;
  /** Digest of `o/sha256/<hex>.svg` or `.png`. */
  logo?: string;
  [extra: string]: unknown;
}

export interface TagEntry {
  /** Digest of the tag's image index, stored at `o/sha256/<hex>.json`. */
  content: string;
  observed: string;
  yanked?: { at: string; reason?: string; [extra: string]: unknown };
}

export type PackageStatus = "active" | "deprecated" | "yanked";

/** `/p/<ns>/<pkg>.json` */
export interface PackageRoot {
  /** `<label>/<ns>/<pkg>` */
  name: string;
  repository: string;
  owners: Owner[];
  status: PackageStatus;
  deprecated_message: string | null;
  superseded_by?: string | null;
  created: string;
  upstream?: Upstream;
  source?: string | null;
  variants?: string[];
  desc: Description | null;
  tags: Record<string, TagEntry>;
}

export interface Platform {
  architecture: string;
  os: string;
  "os.version"?: string;
  "os.features"?: string[];
  variant?: string;
  [extra: string]: unknown;
}

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  platform?: Platform;
  annotations?: Record<string, string>;
  artifactType?: string;
  [extra: string]: unknown;
}

/** `o/sha256/<hex>.json`: an OCI image index. */
export interface ImageIndex {
  schemaVersion: 2;
  mediaType?: string;
  artifactType?: string;
  manifests: Descriptor[];
  annotations?: Record<string, string>;
  [extra: string]: unknown;
}
