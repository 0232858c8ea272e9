import type { ResolvedBounds } from "../../plan/window.js";

/**
 * `plan.json`: the contract between the pipeline's jobs (plan once, prepare per version, test per
 * leg, push once) and the only input another forge needs to render its own pipeline. Optional keys
 * are omitted, never null. Consumers ignore unknown keys and never fail on a higher
 * `schema_version`; renaming, removing or changing the meaning of a key bumps it.
 */
export const PLAN_SCHEMA_VERSION = 1;

export interface PlanDocument {
  schema_version: typeof PLAN_SCHEMA_VERSION;
  /** `registry/repository`. */
  target: string;
  /** The spec's `pkg_mirror.rev`, echoed; absent when unset. */
  pkg_mirror_rev?: string;
  versions_resolved: ResolvedBounds;
  /** At least one entry is `new` or `backfill`; false when the only findings are drift. */
  has_new: boolean;
  /** At least one published version's metadata differs from what the spec now says. */
  has_drift: boolean;
  /** Oldest first; one entry per (version, variant) with work or drift. */
  versions: PlanVersion[];
  /** The CI matrix: one leg per `platforms:` key (the key as written, canonical), `{}` without `platforms`. */
  legs: Record<string, PlanLeg>;
}

export type PlanKind = "new" | "backfill" | "metadata-drift";

export interface PlanVersion {
  /**
   * The tag to publish: the primary tag fixed at plan time (build stamp, variant prefix
   * included). The key every later job uses: `prepare --version`, artefact and JUnit names.
   */
  version: string;
  /** The upstream version text. */
  source_version: string;
  /** The non-default variant; absent for the default one. */
  variant?: string;
  /** `new`: nothing of the version published; `backfill`: some platforms published; never both with drift. */
  kind: PlanKind;
  /** Platform keys (full, `+libc.*` included) still to build; empty for `metadata-drift`. */
  platforms: string[];
  /** Resolved assets of `platforms`, one each; empty for `metadata-drift`. */
  assets: PlanAsset[];
  /** Python sources: the derived lock's path relative to the plan file's directory. */
  pylock?: string;
  /** Pairs whose asset could not be chosen (two candidates): they fail without being built. */
  refused?: Array<{ platform: string; message: string }>;
  /** `severity: broken` excludes holding a platform of this version out, with their reasons. */
  excluded?: Array<{ platform: string; reason?: string }>;
  /**
   * Platforms earlier runs published: a push that makes the version whole puts them in the
   * version's exact and rolling tags too, read from `own_tags`.
   */
  carried?: string[];
  /** With `carried`: the version's own tags (oldest first) where their manifests are read. */
  own_tags?: string[];
  /** `metadata-drift`: per published platform, the fields that differ (for the plain report). */
  drift?: Array<{ platform: string; fields: string[] }>;
}

export interface PlanAsset {
  /** Full platform key. */
  platform: string;
  asset_name: string;
  url: string;
  /** `sha256:<hex>` when the source declares one. */
  digest?: string;
}

export interface PlanLeg {
  /** Runner labels, always a list. */
  runner: string[];
  /** The join key of artefacts and JUnit files for this leg (`linux-amd64-musl`): use verbatim. */
  platform_slug: string;
  /** What a container engine is given as its platform: the key without `+libc.*`. */
  container_platform: string;
  /** Never empty: one `native` entry when the leg has no containers. */
  containers: PlanContainer[];
  /** The leg's tests: `platforms.<p>.tests` when given (it replaces), else the top-level list. */
  tests: PlanTest[];
  /** Prepended to every test command. */
  prefix: string[];
}

/** The id of the one container entry of a leg without containers. */
export const NATIVE_CONTAINER_ID = "native";

export interface PlanContainer {
  /** The JUnit and gating key: as written, else the image with `:` and `/` as `_`; `native` on a native leg. */
  id: string;
  /** Absent on the native entry. */
  image?: string;
  /** Always resolved. */
  shell: string;
  /** `glibc` or `musl`, inferred from the image; absent on the native entry. */
  libc?: "glibc" | "musl";
  /** Image-build commands, one `RUN` each; absent when none. */
  setup?: string[];
}

export type PlanTest = { name: string } & (
  | { command: string }
  | { script: string }
  | { script_inline: string }
);
