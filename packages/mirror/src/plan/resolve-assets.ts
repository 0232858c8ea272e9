import { ExitCode, PkgError } from "@pkg/common";
import type { RE2JS } from "re2js";
import type { UpstreamAsset, UpstreamVersion } from "../sources/types.js";
import type { AssetsSpec } from "../spec/assets.js";
import type { MirrorSpec } from "../spec/mirror-spec.js";
import { compileRegex } from "../spec/regex.js";
import { PYTHON_SOURCE_TYPES } from "../spec/source.js";

/**
 * One asset set of a spec: the top-level `assets`, or one variant's. `variant` is the tag prefix
 * (absent for the set published unprefixed: top-level assets or the default variant); `label`
 * names the set in reports.
 */
export interface AssetSet {
  variant?: string;
  label: string;
  assets: AssetsSpec;
  /**
   * A Python source's one set: its platforms are the `wheels` keys (no regexes), and each resolves
   * to the version's app distribution (see `resolveAssets`).
   */
  wheels?: true;
}

/** A platform's regexes, compiled once per run. */
export interface CompiledAssetSet {
  variant?: string;
  label: string;
  /** As `AssetSet.wheels`. */
  wheels?: true;
  platforms: ReadonlyArray<{ platform: string; patterns: readonly RE2JS[] }>;
}

/** What one platform's regex list selects among a version's assets. */
export type AssetResolution =
  | { state: "resolved"; asset: UpstreamAsset }
  | { state: "absent" }
  /** Two or more distinct asset names matched; `candidates` in the order the upstream lists them. */
  | { state: "ambiguous"; candidates: string[] };

/**
 * The asset sets of a spec: each variant (the default one unprefixed), else the top-level `assets`;
 * for a Python source (`pylock`, `pypi`), one set of its `wheels` keys.
 */
export function assetSets(spec: Pick<MirrorSpec, "assets" | "variants" | "wheels" | "source">): AssetSet[] {
  if (spec.source !== undefined && PYTHON_SOURCE_TYPES.includes(spec.source.type)) {
    const keys = Object.keys(spec.wheels ?? {});
    return [{ label: "default", assets: Object.fromEntries(keys.map((key) => [key, []])), wheels: true }];
  }
  if (spec.variants) {
    return spec.variants.map((v) =>
      v.default || v.name === undefined
        ? { label: v.name ?? "default", assets: v.assets }
        : { variant: v.name, label: v.name, assets: v.assets },
    );
  }
  return spec.assets ? [{ label: "default", assets: spec.assets }] : [];
}

/** Compiles every pattern as RE2; the loader has checked them, so a failure here is bad data (65). */
export function compileAssetSet(set: AssetSet): CompiledAssetSet {
  const platforms = Object.entries(set.assets).map(([platform, sources]) => ({
    platform,
    patterns: sources.map((source) => {
      const compiled = compileRegex(source);
      if ("problem" in compiled) {
        throw new PkgError(
          ExitCode.Data,
          `assets ${platform}: invalid regular expression ${JSON.stringify(source)}: ${compiled.problem}`,
        );
      }
      return compiled;
    }),
  }));
  return {
    ...(set.variant === undefined ? {} : { variant: set.variant }),
    label: set.label,
    ...(set.wheels ? { wheels: true as const } : {}),
    platforms,
  };
}

/**
 * Resolves each platform of `set` against the assets of one version. A regex matches when it is
 * found anywhere in the asset name (anchor it with `^...$` to match the whole name). The matches
 * of all the platform's regexes are pooled: one distinct name resolves (several regexes matching
 * the same asset are one match), none is absent, more is ambiguous.
 */
export function resolveAssets(version: UpstreamVersion, set: CompiledAssetSet): Map<string, AssetResolution> {
  const resolved = new Map<string, AssetResolution>();
  if (set.wheels) {
    const app = appDistribution(version);
    for (const { platform } of set.platforms) {
      resolved.set(platform, app === undefined ? { state: "absent" } : { state: "resolved", asset: app });
    }
    return resolved;
  }
  for (const { platform, patterns } of set.platforms) {
    const matches = version.assets.filter((asset) => patterns.some((pattern) => pattern.test(asset.name)));
    const names = [...new Set(matches.map((asset) => asset.name))];
    const [first] = matches;
    if (first === undefined) resolved.set(platform, { state: "absent" });
    else if (names.length === 1) resolved.set(platform, { state: "resolved", asset: first });
    else resolved.set(platform, { state: "ambiguous", candidates: names });
  }
  return resolved;
}

/**
 * The file standing for a Python version in every `wheels` key's pair: the app's first wheel, else
 * its first file (an sdist). Which wheels a key publishes is decided from the version's lock when it
 * is built; a version is listed only with a file, so its pairs resolve (a `pylock` app locked
 * without a file has none: absent).
 */
function appDistribution(version: UpstreamVersion): UpstreamAsset | undefined {
  return version.assets.find((asset) => asset.name.endsWith(".whl")) ?? version.assets[0];
}

/** An ambiguity as data for reports. */
export interface Ambiguity {
  version: string;
  platform: string;
  /** The asset set's label (`default` or the variant name). */
  variant: string;
  candidates: string[];
}

export function describeAmbiguity(ambiguity: Ambiguity): string {
  const set = ambiguity.variant === "default" ? "" : ` (variant ${ambiguity.variant})`;
  return `version ${ambiguity.version} platform ${ambiguity.platform}${set}: the assets regexes match ${ambiguity.candidates.length} assets: ${ambiguity.candidates.join(", ")}`;
}

/** Exit 65 naming the first ambiguity, and how many more there are. */
export function ambiguityError(ambiguities: readonly [Ambiguity, ...Ambiguity[]]): PkgError {
  const [first] = ambiguities;
  const more = ambiguities.length > 1 ? ` (and ${ambiguities.length - 1} more ambiguous pairs)` : "";
  return new PkgError(ExitCode.Data, `ambiguous asset: ${describeAmbiguity(first)}${more}`);
}
