import type { Dependency, Metadata } from "@pkg/package";
import type { BinScan } from "../../spec/bin-scan.js";

/** The metadata keys in the order a drift report names them; unknown keys follow, sorted. */
const FIELD_ORDER = ["type", "version", "strip_components", "env", "binaries", "entrypoints", "dependencies"];

/**
 * The top-level fields in which `published` differs from `expected`, the metadata the spec would
 * publish now; empty when the published metadata is current. Only what the spec controls counts:
 * - under `bin_scan` `auto` or `verify`, a `binaries` claim the metadata file leaves out was the
 *   scan's at build time (and cannot be scanned again without downloading): the published claim is
 *   adopted before comparing. A declared claim compares like any field.
 * - a dependency the file names by tag alone is current when the published one pins that same
 *   registry, repository and tag by digest (the build pins it to the digest the tag had).
 * Values compare as canonical JSON (keys sorted, arrays in order, absent keys left out).
 */
export function metadataDrift(expected: Metadata, published: Metadata, binScan: BinScan): string[] {
  const want: Record<string, unknown> = { ...expected };
  const have: Record<string, unknown> = { ...published };
  if (binScan !== "off" && expected.binaries === undefined) want.binaries = published.binaries;
  if (expected.dependencies !== undefined && published.dependencies !== undefined) {
    want.dependencies = expected.dependencies.map((dependency, i) =>
      adoptPin(dependency, published.dependencies?.[i]),
    );
  }
  const keys = new Set([...Object.keys(want), ...Object.keys(have)]);
  return [...keys]
    .filter((key) => canonical(want[key]) !== canonical(have[key]))
    .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
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
