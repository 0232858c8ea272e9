import { ExitCode, PkgError } from "@pkg/common";
import {
  compareVersions,
  formatVersion,
  matchVersion,
  parseTag,
  type Version,
  withoutBuild,
} from "@pkg/package";
import { leafVersions } from "@pkg/package/cascade";

/** The versions `pipeline patch` is asked about: a union; nothing given means every published version. */
export interface PatchSelection {
  /** `--version`: a version (`1.2.3`, `debug-1.2.3`) or one of its build tags, verbatim. */
  versions: readonly string[];
  /** `--min-version`, inclusive. */
  min?: string;
  /** `--max-version`, exclusive. */
  max?: string;
}

/** A published leaf version to patch, and the leaf tags its manifests are read from (oldest first). */
export interface SelectedLeaf {
  variant?: string;
  version: string;
  parsed: Version;
  tags: string[];
}

function bound(text: string | undefined, flag: string): Version | undefined {
  if (text === undefined) return undefined;
  const version = matchVersion(text);
  if (typeof version === "string" || version.build !== undefined)
    throw new PkgError(
      ExitCode.Usage,
      `${flag} ${text}: not a version (${typeof version === "string" ? version : "a build tag"})`,
    );
  return version;
}

/**
 * The leaf versions of the spec's variants that the selection names, in variant then version
 * order: `--version` matches a leaf tag verbatim (that build alone) or a version by its core (all
 * its leaf tags); `--min-version`/`--max-version` take every version in [min, max). Naming a tag
 * that is a rolling alias (`latest`, `1.2`, a variant's name) or nothing published is exit 64.
 */
export function selectLeaves(
  tags: readonly string[],
  variants: ReadonlyArray<string | undefined>,
  selection: PatchSelection,
): SelectedLeaf[] {
  const min = bound(selection.min, "--min-version");
  const max = bound(selection.max, "--max-version");
  const everything = selection.versions.length === 0 && min === undefined && max === undefined;
  const byVariant = variants.map((variant) => ({ variant, leaves: leafVersions(tags, variant) }));
  const chosen = new Map<string, SelectedLeaf>();
  const key = (variant: string | undefined, version: string) => `${variant ?? ""}\u0000${version}`;
  const take = (
    variant: string | undefined,
    leaf: { version: string; parsed: Version },
    leafTags: string[],
  ) => {
    const k = key(variant, leaf.version);
    const held = chosen.get(k);
    const merged = [...new Set([...(held?.tags ?? []), ...leafTags])].sort();
    chosen.set(k, {
      ...(variant === undefined ? {} : { variant }),
      version: leaf.version,
      parsed: leaf.parsed,
      tags: merged,
    });
  };

  for (const { variant, leaves } of byVariant) {
    for (const leaf of leaves.values()) {
      const inRange =
        (min !== undefined || max !== undefined) &&
        (min === undefined || compareVersions(leaf.parsed, min) >= 0) &&
        (max === undefined || compareVersions(leaf.parsed, max) < 0);
      if (everything || inRange) take(variant, leaf, leaf.tags);
    }
  }
  for (const named of selection.versions) {
    const verbatim = byVariant.flatMap(({ variant, leaves }) =>
      [...leaves.values()].filter((leaf) => leaf.tags.includes(named)).map((leaf) => ({ variant, leaf })),
    );
    if (verbatim.length > 0) {
      for (const { variant, leaf } of verbatim) take(variant, leaf, [named]);
      continue;
    }
    const info = parseTag(named);
    const variant = "variant" in info ? info.variant : undefined;
    const scope = byVariant.find((v) => v.variant === variant);
    const version =
      (info.kind === "exact" || info.kind === "rolling") && info.version !== undefined
        ? formatVersion(withoutBuild(info.version))
        : undefined;
    const leaf = version === undefined ? undefined : scope?.leaves.get(version);
    if (scope && leaf) {
      take(scope.variant, leaf, leaf.tags);
      continue;
    }
    if (tags.includes(named) && (info.kind === "rolling" || info.kind === "exact")) {
      throw new PkgError(
        ExitCode.Usage,
        `--version ${named} names a rolling alias, not a published version: name a version (1.2.3) or one of its build tags (1.2.3_20250101120000)`,
      );
    }
    throw new PkgError(
      ExitCode.Usage,
      `--version ${named}: no published version or build tag of that name among the spec's variants`,
    );
  }
  return [...chosen.values()].sort(
    (a, b) => (a.variant ?? "").localeCompare(b.variant ?? "") || compareVersions(a.parsed, b.parsed),
  );
}
