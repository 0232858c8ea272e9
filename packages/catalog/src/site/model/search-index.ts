import type { PackageStatus } from "@pkg/index";
import type { CardView } from "./card-view.js";

/**
 * The catalog's search index: every package of every index in one compact document, loaded by the
 * browser only when someone searches, filters or sorts. Repeated strings (OS names, keywords) are
 * stored once and referenced by position; each package is one array row. Imports types only, so the
 * browser bundle reads the same definitions.
 */
export interface SearchIndex {
  format: 1;
  /** Index labels in source order. */
  indexes: string[];
  /** Positions in `indexes` of the indexes kept out of the `all` tab. */
  excludedFromAll: number[];
  oses: string[];
  keywords: string[];
  packages: SearchRow[];
}

export type SearchRow = [
  name: string,
  title: string,
  description: string,
  route: string,
  latest: string,
  latestObserved: string,
  status: number,
  index: number,
  oses: number[],
  keywords: number[],
  logoHref: string,
];

/** A decoded row: a card, the index it belongs to, and its text for matching. */
export interface SearchEntry extends CardView {
  /** Position of the package's index in `SearchIndex.indexes`. */
  index: number;
  /** Lower-cased name, title, description and keywords, for substring matching. */
  text: string;
}

const statuses: readonly PackageStatus[] = ["active", "deprecated", "yanked"];

export interface SearchIndexInput {
  indexes: { label: string; excludeFromAll: boolean; packages: readonly CardView[] }[];
}

function positions(values: Iterable<string>): Map<string, number> {
  const sorted = [...new Set(values)].sort();
  return new Map(sorted.map((value, i) => [value, i]));
}

/** The search index of every package, in index order then the order each index lists them. */
export function buildSearchIndex(input: SearchIndexInput): SearchIndex {
  const all = input.indexes.flatMap((index) => index.packages);
  const oses = positions(all.flatMap((pkg) => pkg.oses));
  const keywords = positions(all.flatMap((pkg) => pkg.keywords));
  const at = (table: Map<string, number>, value: string) => table.get(value) ?? -1;
  return {
    format: 1,
    indexes: input.indexes.map((index) => index.label),
    excludedFromAll: input.indexes.flatMap((index, i) => (index.excludeFromAll ? [i] : [])),
    oses: [...oses.keys()],
    keywords: [...keywords.keys()],
    packages: input.indexes.flatMap((index, i) =>
      index.packages.map(
        (pkg): SearchRow => [
          pkg.name,
          pkg.title,
          pkg.description,
          pkg.route,
          pkg.latest ?? "",
          pkg.latestObserved ?? "",
          Math.max(0, statuses.indexOf(pkg.status)),
          i,
          pkg.oses.map((os) => at(oses, os)),
          pkg.keywords.map((k) => at(keywords, k)),
          pkg.logoHref ?? "",
        ],
      ),
    ),
  };
}

/** The rows as cards with their matching text. */
export function decodeSearchIndex(index: SearchIndex): SearchEntry[] {
  return index.packages.map((row) => {
    const [name, title, description, route, latest, observed, status, position, oses, keywords, logo] = row;
    const words = keywords.map((k) => index.keywords[k] ?? "");
    const entry: SearchEntry = {
      name,
      title,
      description,
      route,
      keywords: words,
      oses: oses.map((o) => index.oses[o] ?? ""),
      status: statuses[status] ?? "active",
      index: position,
      text: `${name} ${title} ${description} ${words.join(" ")}`.toLowerCase(),
    };
    if (latest !== "") entry.latest = latest;
    if (observed !== "") entry.latestObserved = observed;
    if (logo !== "") entry.logoHref = logo;
    return entry;
  });
}

/** Which packages a tab lists: `all` (every index not kept out of it, or every index of a one-index
 *  catalog), or one index by label. */
export function inTab(index: SearchIndex, tab: string): (entry: SearchEntry) => boolean {
  if (tab === "all") {
    if (index.indexes.length === 1) return () => true;
    const excluded = new Set(index.excludedFromAll);
    return (entry) => !excluded.has(entry.index);
  }
  const position = index.indexes.indexOf(tab);
  return (entry) => entry.index === position;
}

/** The name of the global the search-index script sets (a script, not JSON, so it also loads when
 *  the site is opened from disk, where the browser refuses fetch). */
export const searchIndexGlobal = "pkgSearchIndex";

/** The search index as a classic script: `self.pkgSearchIndex=JSON.parse("...")` (parsing a JSON
 *  string is faster than evaluating the same object literal). */
export function searchIndexScript(index: SearchIndex): string {
  return `self.${searchIndexGlobal}=JSON.parse(${JSON.stringify(JSON.stringify(index))});\n`;
}
