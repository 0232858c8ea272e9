import type { MirrorSpec } from "../../spec/mirror-spec.js";

/** One spec of the repository, placed: where it is, and the names its files take from that. */
export interface SpecSlot {
  spec: MirrorSpec;
  /** The spec file, repository-relative with `/` (`mirror.yml`, `tools/jq/mirror.yml`). */
  specPath: string;
  /** Its directory, repository-relative with `/`; empty for the repository root. */
  dir: string;
  /** The spec and every parent it extends, repository-relative, child first. */
  chain: string[];
  /** Test scripts its legs run (`tests[].script`, per-platform lists included), repository-relative. */
  scripts: string[];
  /** Metadata files its `metadata` block selects, repository-relative. */
  metadataFiles: string[];
  /** Catalog README and logo as repository-relative paths or globs (`logo.*` when none is set). */
  catalogPaths: string[];
  /** Further inputs of the plan that live in files: a bound's `file`, a generator's directory (`dir/**`). */
  planInputs: string[];
}

/** The workflow stems, in the order they are rendered. */
export const WORKFLOW_STEMS = ["mirror", "describe", "patch", "cascade", "announce-from-registry"] as const;
export type WorkflowStem = (typeof WORKFLOW_STEMS)[number];

/** The drift guard, one per repository. */
export const DRIFT_GUARD_STEM = "verify-generated";

/** The file name suffix of a spec: empty at the root, else `-` and its directory with `/` as `-`. */
export function slotSuffix(dir: string): string {
  return dir === "" ? "" : `-${dir.split("/").join("-")}`;
}

/** `.github/workflows/<stem><suffix>.yml`. */
export function workflowPath(stem: string, dir: string): string {
  return `.github/workflows/${stem}${slotSuffix(dir)}.yml`;
}

/**
 * The `--spec` a pipeline invocation carries: none for the root spec named `mirror.yml` (every
 * command's default); the repository-relative path otherwise.
 */
export function specArgs(slot: Pick<SpecSlot, "specPath">): string[] {
  return slot.specPath === "mirror.yml" ? [] : ["--spec", slot.specPath];
}

/** Which generated workflows a spec has: cascade unless `cascade: false`, the catch-up announce with an `announce` block. */
export function slotStems(spec: MirrorSpec): WorkflowStem[] {
  return WORKFLOW_STEMS.filter((stem) => {
    if (stem === "cascade") return spec.cascade?.enabled !== false;
    if (stem === "announce-from-registry") return spec.announce !== undefined;
    return true;
  });
}

/** The workflow's `name:`: distinct per file (the stem and suffix), then the spec's name. */
export function workflowName(stem: string, slot: Pick<SpecSlot, "dir" | "spec">): string {
  return `${stem}${slotSuffix(slot.dir)}: ${slot.spec.name ?? ""}`;
}
