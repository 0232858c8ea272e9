import { type Descriptor, type ImageIndex, MediaType } from "@pkg/oci";
import { PackageMediaType } from "../media-types.js";
import { platformKeyFromOci, platformsEqual } from "../platform/index.js";
import { mergeIntoIndex } from "../push/index-merge.js";
import type { IndexEntry } from "../push/tags.js";
import { foldCascade } from "../version/cascade.js";
import { compareVersions } from "../version/compare.js";
import { parseVersion } from "../version/grammar.js";
import { parseTag } from "../version/tags.js";
import { type LeafVersion, leafVersions, tagVariants } from "./leaves.js";

/** What a tag of the version grammar holds: its digest and, unless it is a single manifest, its index. */
export interface TagContent {
  digest: string;
  index?: ImageIndex;
}

/**
 * A row's status:
 * - `ok`: the tag holds, per platform, exactly the manifest of the newest leaf version of its
 *   series carrying that platform, and no other package platform;
 * - `missing`: a leaf version of its series exists, but the repository has no such tag;
 * - `stale`: the tag lacks a platform such a version carries, or points a platform at another
 *   manifest (an older version's, a superseded build's), or holds a single manifest, not an index;
 * - `duplicate`: the tag lists one platform more than once;
 * - `orphan`: the tag holds a platform no leaf version of its series carries, or no leaf version
 *   stands behind the tag at all.
 * A tag with several of these is reported with the first of stale, duplicate, orphan.
 */
export type CascadeStatus = "ok" | "missing" | "stale" | "orphan" | "duplicate";

/** Per platform of a row: `absent` (expected, not held), `wrong` (held, another manifest). */
export type PlatformState = "ok" | "absent" | "wrong" | "duplicate" | "orphan";

/**
 * Why a row cannot be repaired:
 * - `would-empty-index`: no leaf version stands behind the tag, so rebuilding it leaves no package
 *   entry (delete the tag, or publish a version of its series);
 * - `child-manifest-missing`: a leaf's index names a manifest the repository no longer holds
 *   (re-publish that version);
 * - `not-an-index`: the tag holds a single manifest; it is never replaced by an index.
 */
export type UnrepairableReason = "would-empty-index" | "child-manifest-missing" | "not-an-index";

export interface PlatformFinding {
  platform: string;
  state: PlatformState;
  /** The newest leaf version of the tag's series carrying the platform, and its manifest. */
  expected?: { version: string; digest: string };
  /** The entries the tag holds for the platform; `version` when the manifest is a leaf's. */
  held: Array<{ digest: string; version?: string }>;
}

export interface AliasRow {
  tag: string;
  /** Non-default variant the tag belongs to. */
  variant?: string;
  status: CascadeStatus;
  /** The digest the tag holds now; null when it is missing. */
  digest: string | null;
  platforms: PlatformFinding[];
  unrepairable?: { reason: UnrepairableReason; detail: string };
}

/** A row with what a repair needs: the fold's entries, the entries it cannot attribute, the annotations. */
export interface AuditedAlias {
  row: AliasRow;
  /** The entries the fold gives the tag, one per platform. */
  expected: IndexEntry[];
  /** Held entries without a package platform (never ours to drop). */
  kept: Descriptor[];
  /** The held index's annotations; for a missing tag, those of its newest version's leaf index. */
  annotations: Record<string, string>;
}

export interface CascadeAudit {
  /** Leaf versions across every variant. */
  leaves: number;
  /** The leaf versions `incomplete` named that the repository holds, by exact tag: left out of the fold. */
  heldOut: string[];
  aliases: AuditedAlias[];
}

export interface FoldOptions {
  /**
   * Leaf versions to leave out of the fold, by exact tag (`1.1.0`, `edge-1.1.0`): versions that
   * are not whole (a platform they should carry was never published), which the cascade never
   * gives rolling tags. Their own tags stay leaves, never rows; every rolling tag is judged as if
   * they did not exist, so one holding their manifests is stale (or, with nothing else behind it,
   * an unrepairable orphan). A named version the repository does not hold is ignored.
   */
  incomplete?: ReadonlySet<string>;
}

interface LeafPlatform {
  entry: IndexEntry;
  version: string;
}

interface VariantLeaves {
  variant: string | undefined;
  leaves: Map<string, LeafVersion>;
  /** Version -> platform key -> its entry, from the newest leaf tag holding the platform. */
  entries: Map<string, Map<string, LeafPlatform>>;
  /** Version -> its newest leaf index's annotations. */
  annotations: Map<string, Record<string, string>>;
}

/** A leaf version's text as its exact tag spells it: `1.2.3`, `edge-1.2.3`. */
const label = (version: string, variant: string | undefined) =>
  variant === undefined ? version : `${variant}-${version}`;

function readLeaves(contents: ReadonlyMap<string, TagContent>, variant: string | undefined): VariantLeaves {
  const leaves = leafVersions(contents.keys(), variant);
  const entries = new Map<string, Map<string, LeafPlatform>>();
  const annotations = new Map<string, Record<string, string>>();
  for (const leaf of leaves.values()) {
    const platforms = new Map<string, LeafPlatform>();
    for (const tag of leaf.tags) {
      const index = contents.get(tag)?.index;
      if (!index) continue;
      if (index.annotations) annotations.set(leaf.version, index.annotations);
      for (const entry of index.manifests) {
        const key = entry.platform ? platformKeyFromOci(entry.platform) : undefined;
        // newer tags come later and replace what older builds held
        if (key && entry.platform)
          platforms.set(key.key, {
            entry: { ...entry, platform: entry.platform },
            version: label(leaf.version, variant),
          });
      }
    }
    entries.set(leaf.version, platforms);
  }
  return { variant, leaves, entries, annotations };
}

/** Whether an alias-looking tag belongs to the audit of `variant` (not a leaf, not another variant's). */
function aliasOf(tag: string, variant: string | undefined, hasLeaves: boolean): boolean {
  const info = parseTag(tag);
  if (info.kind !== "exact" && info.kind !== "rolling") return false;
  if (info.variant !== variant) return false;
  // a lowercase word reads as a variant's name (`edge`, `edge-2`): only a variant with versions
  // makes it one; the tags of a variant without any are someone else's, never judged
  return variant === undefined || hasLeaves;
}

/**
 * Audits every rolling tag of a repository (`X.Y.Z`, `X.Y`, `X`, `latest`, a variant's name and
 * its prefixed forms) against the fold of its leaf versions (`leafVersions`): what the cascade
 * would have written had every publication completed in order. A named variant without any leaf
 * version is not audited (`edge`, `stable-1` set by hand are not the cascade's). `contents` holds every tag of the
 * version grammar the repository has, with what it holds; `options.incomplete` names leaf
 * versions the fold leaves out. Pure: the caller reads.
 */
export function auditCascade(
  contents: ReadonlyMap<string, TagContent>,
  options: FoldOptions = {},
): CascadeAudit {
  const incomplete = options.incomplete ?? new Set<string>();
  const tags = [...contents.keys()];
  const variants = tagVariants(tags).map((variant) => readLeaves(contents, variant));
  const leafTags = new Set(variants.flatMap((v) => [...v.leaves.values()].flatMap((leaf) => leaf.tags)));
  const versionOfDigest = new Map<string, string>();
  for (const v of variants) {
    for (const leaf of v.leaves.values()) {
      for (const tag of leaf.tags)
        for (const entry of contents.get(tag)?.index?.manifests ?? [])
          versionOfDigest.set(entry.digest, label(leaf.version, v.variant));
    }
  }

  const aliases: AuditedAlias[] = [];
  const heldOut: string[] = [];
  for (const v of variants) {
    const all = [...v.entries].map(([version, platforms]) => [version, [...platforms.keys()]] as const);
    const out = all.filter(([version]) => incomplete.has(label(version, v.variant)));
    heldOut.push(...out.map(([version]) => label(version, v.variant)));
    const fold = foldCascade(new Map(all.filter((e) => !out.includes(e))), v.variant);
    // which held-out versions a tag would stand for, to say why it is left empty
    const foldOut = foldCascade(new Map(out), v.variant);
    const candidates = new Set([
      ...fold.keys(),
      ...tags.filter((tag) => aliasOf(tag, v.variant, v.leaves.size > 0)),
    ]);
    for (const tag of [...candidates].sort()) {
      if (leafTags.has(tag)) continue;
      const expected = new Map<string, LeafPlatform>();
      for (const [platform, version] of fold.get(tag) ?? []) {
        const found = v.entries.get(version)?.get(platform);
        if (found) expected.set(platform, found);
      }
      const newest = newestVersion(fold.get(tag)?.values() ?? []);
      const behind = [...new Set(foldOut.get(tag)?.values() ?? [])].map((version) =>
        label(version, v.variant),
      );
      aliases.push(
        auditAlias(tag, v.variant, contents.get(tag), expected, versionOfDigest, {
          leafAnnotations: newest === undefined ? {} : (v.annotations.get(newest) ?? {}),
          heldOutBehind: behind.sort(),
        }),
      );
    }
  }
  return { leaves: variants.reduce((n, v) => n + v.leaves.size, 0), heldOut, aliases };
}

function newestVersion(versions: Iterable<string>): string | undefined {
  let newest: string | undefined;
  for (const text of versions)
    if (newest === undefined || compareVersions(parseVersion(text), parseVersion(newest)) > 0) newest = text;
  return newest;
}

function auditAlias(
  tag: string,
  variant: string | undefined,
  held: TagContent | undefined,
  expected: ReadonlyMap<string, LeafPlatform>,
  versionOfDigest: ReadonlyMap<string, string>,
  context: { leafAnnotations: Record<string, string>; heldOutBehind: readonly string[] },
): AuditedAlias {
  const scope = variant === undefined ? {} : { variant };
  const expectedEntries = [...expected.values()].map((e) => e.entry);
  const heldOf = (digest: string) => {
    const version = versionOfDigest.get(digest);
    return version === undefined ? { digest } : { digest, version };
  };
  const expectation = (platform: string) => {
    const e = expected.get(platform);
    return e ? { expected: { version: e.version, digest: e.entry.digest } } : {};
  };
  if (held === undefined) {
    const platforms = [...expected.keys()]
      .sort()
      .map(
        (platform): PlatformFinding => ({ platform, state: "absent", ...expectation(platform), held: [] }),
      );
    return {
      row: { tag, ...scope, status: "missing", digest: null, platforms },
      expected: expectedEntries,
      kept: [],
      annotations: context.leafAnnotations,
    };
  }
  if (held.index === undefined) {
    return {
      row: {
        tag,
        ...scope,
        status: "stale",
        digest: held.digest,
        platforms: [],
        unrepairable: {
          reason: "not-an-index",
          detail: `${tag} holds a single manifest, not an image index; it is never replaced`,
        },
      },
      expected: expectedEntries,
      kept: [],
      annotations: {},
    };
  }

  const byPlatform = new Map<string, Descriptor[]>();
  const kept: Descriptor[] = [];
  for (const entry of held.index.manifests) {
    const key = entry.platform ? platformKeyFromOci(entry.platform) : undefined;
    if (!key) kept.push(entry);
    else byPlatform.set(key.key, [...(byPlatform.get(key.key) ?? []), entry]);
  }
  const platforms = [...new Set([...expected.keys(), ...byPlatform.keys()])]
    .sort()
    .map((platform): PlatformFinding => {
      const e = expected.get(platform);
      const entries = byPlatform.get(platform) ?? [];
      const state: PlatformState =
        e === undefined
          ? "orphan"
          : entries.length === 0
            ? "absent"
            : entries.length > 1
              ? "duplicate"
              : entries[0]?.digest === e.entry.digest
                ? "ok"
                : "wrong";
      return { platform, state, ...expectation(platform), held: entries.map((h) => heldOf(h.digest)) };
    });
  const has = (state: PlatformState) => platforms.some((p) => p.state === state);
  const status: CascadeStatus =
    has("absent") || has("wrong")
      ? "stale"
      : has("duplicate")
        ? "duplicate"
        : has("orphan") || expected.size === 0
          ? "orphan"
          : "ok";
  const row: AliasRow = { tag, ...scope, status, digest: held.digest, platforms };
  if (expected.size === 0) {
    const behind = context.heldOutBehind;
    row.unrepairable = {
      reason: "would-empty-index",
      detail:
        behind.length === 0
          ? `no leaf version stands behind ${tag}: delete the tag, or publish a version of its series`
          : `only ${behind.join(", ")}, held out of the fold as incomplete, ${behind.length === 1 ? "stands" : "stand"} behind ${tag}: delete the tag, or complete ${behind.length === 1 ? "that version" : "those versions"}`,
    };
  }
  return { row, expected: expectedEntries, kept, annotations: held.index.annotations ?? {} };
}

/**
 * The index a repair writes for an alias: the entries it cannot attribute (no package platform)
 * and its annotations kept, every package platform replaced by the fold's entry. Entries sorted
 * as a push sorts them, so the bytes do not depend on the order anything was found in.
 */
export function rebuiltIndex(alias: AuditedAlias): ImageIndex {
  const base: ImageIndex = {
    schemaVersion: 2,
    mediaType: MediaType.ImageIndex,
    artifactType: PackageMediaType.Artifact,
    manifests: alias.kept,
  };
  if (Object.keys(alias.annotations).length > 0) base.annotations = alias.annotations;
  return alias.expected.reduce<ImageIndex>(
    (index, entry) => mergeIntoIndex(index, entry, {}, platformsEqual),
    base,
  );
}
