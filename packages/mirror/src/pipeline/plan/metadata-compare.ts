import type { Dependency, Metadata } from "@pkg/package";
import type { BinScan } from "../../spec/bin-scan.js";

/** The metadata keys in the order a drift report names them; unknown keys follow, sorted. */
const FIELD_ORDER = ["type", "version", "strip_components", "env", "binaries", "entrypoints", "dependencies"];

/**
 * The metadata the spec gives a published version now, with what it cannot give by itself taken
 * from the published metadata (`published`):
 * - under `bin_scan` `auto` or `verify`, a `binaries` claim the metadata file leaves out was the
 *   scan's at build time (and cannot be scanned again without downloading): the published claim;
 * - a dependency the file names by tag alone takes the published pin of that same registry,
 *   repository and tag (the build pinned it to the digest the tag had).
 * What `pipeline plan` compares and what `pipeline patch` publishes.
 */
export function adoptPublished(expected: Metadata, published: Metadata, binScan: BinScan): Metadata {
  const want: Metadata = { ...expected };
  if (binScan !== "off" && expected.binaries === undefined) {
    if (published.binaries === undefined) delete want.binaries;
    else want.binaries = published.binaries;
  }
  if (expected.dependencies !== undefined && published.dependencies !== undefined) {
    want.dependencies = expected.dependencies.map((dependency, i) =>
      adoptPin(dependency, published.dependencies?.[i]),
    );
  }
  return want;
}

/**
 * The top-level fields in which `published` differs from `expected`, the metadata the spec would
 * publish now; empty when the published metadata is current. Only what the spec controls counts
 * (see `adoptPublished`). Values compare as canonical JSON (keys sorted, arrays in order, absent
 * keys left out). The one comparison of `pipeline plan` (metadata-drift) and `pipeline patch`.
 */
export function metadataDrift(expected: Metadata, published: Metadata, binScan: BinScan): string[] {
  const want: Record<string, unknown> = { ...adoptPublished(expected, published, binScan) };
  const have: Record<string, unknown> = { ...published };
  const keys = new Set([...Object.keys(want), ...Object.keys(have)]);
  return [...keys]
    .filter((key) => canonical(want[key]) !== canonical(have[key]))
    .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Why `pipeline patch` cannot publish `expected` over `published`: a dependency the spec adds
 * (its repository is not among the published ones), or one named by tag alone whose tag differs
 * from the published one's (moved). Patch downloads nothing and so cannot pin a tag to the digest
 * it has at build time; such versions must be deleted and mirrored again. Empty: patchable.
 */
export function dependencyRefusals(expected: Metadata, published: Metadata): string[] {
  const held = new Map((published.dependencies ?? []).map((d) => [repositoryOf(d.identifier), d]));
  const reasons: string[] = [];
  for (const dependency of expected.dependencies ?? []) {
    const repository = repositoryOf(dependency.identifier);
    const before = held.get(repository);
    if (before === undefined) {
      reasons.push(`adds the dependency ${dependency.identifier}`);
      continue;
    }
    const tag = tagOf(dependency.identifier);
    if (namesTagAlone(dependency.identifier) && tagOf(before.identifier) !== tag) {
      reasons.push(
        `moves the dependency ${repository} from ${tagOf(before.identifier) ?? "its digest"} to tag ${tag}`,
      );
    }
  }
  return reasons;
}

/** `registry/repository` of `registry/repository[:tag][@digest]`. */
function repositoryOf(identifier: string): string {
  const name = identifier.split("@")[0] ?? identifier;
  const slash = name.lastIndexOf("/");
  const colon = name.indexOf(":", slash + 1);
  return colon < 0 ? name : name.slice(0, colon);
}

function tagOf(identifier: string): string | undefined {
  const name = identifier.split("@")[0] ?? identifier;
  const slash = name.lastIndexOf("/");
  const colon = name.indexOf(":", slash + 1);
  return colon < 0 ? undefined : name.slice(colon + 1);
}

function rank(key: string): number {
  const i = FIELD_ORDER.indexOf(key);
  return i < 0 ? FIELD_ORDER.length : i;
}

/**
 * The expected dependency, its identifier taking the published pin when the file names the same
 * registry, repository and tag without a digest and the published identifier adds only the digest.
 */
function adoptPin(expected: Dependency, published: Dependency | undefined): Dependency {
  if (published === undefined || !namesTagAlone(expected.identifier)) return expected;
  const at = published.identifier.lastIndexOf("@");
  if (at < 0 || published.identifier.slice(0, at) !== expected.identifier) return expected;
  if (!/^sha256:[0-9a-f]{64}$/.test(published.identifier.slice(at + 1))) return expected;
  return { ...expected, identifier: published.identifier };
}

/** `registry/repository:tag`, without a digest. */
function namesTagAlone(identifier: string): boolean {
  return !identifier.includes("@") && identifier.slice(identifier.lastIndexOf("/") + 1).includes(":");
}

/** JSON with object keys sorted at every level and undefined members left out; undefined itself is "". */
function canonical(value: unknown): string {
  if (value === undefined) return "";
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
