import type { Facet, PackageSummary } from "./types.js";

/** Counts of each value over the packages, most frequent first, then by value. */
export function facetCounts(
  packages: readonly PackageSummary[],
  values: (pkg: PackageSummary) => string[],
): Facet[] {
  const counts = new Map<string, number>();
  for (const pkg of packages) {
    for (const value of values(pkg)) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}
