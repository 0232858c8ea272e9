import type { SearchEntry } from "../site/model/search-index.js";

/** The catalog view's whole state, as it lives in the URL query (shareable, and the back button
 *  restores it). Empty values are the defaults and stay out of the URL. */
export interface CatalogState {
  q: string;
  os: string;
  status: string;
  kw: string;
  sort: string;
  view: string;
}

export const stateKeys = ["q", "os", "status", "kw", "sort", "view"] as const;

export function parseState(search: string): CatalogState {
  const params = new URLSearchParams(search);
  const state: CatalogState = { q: "", os: "", status: "", kw: "", sort: "", view: "" };
  for (const key of stateKeys) state[key] = params.get(key) ?? "";
  return state;
}

export function formatState(state: CatalogState): string {
  const params = new URLSearchParams();
  for (const key of stateKeys) if (state[key] !== "") params.set(key, state[key]);
  const query = params.toString();
  return query === "" ? "" : `?${query}`;
}

/** Whether the state selects or orders anything: the pre-rendered pages already show the rest. */
export function narrows(state: CatalogState): boolean {
  return state.q !== "" || state.os !== "" || state.status !== "" || state.kw !== "" || state.sort !== "";
}

/** The lower-cased words of a query. */
export function queryWords(q: string): string[] {
  return q.toLowerCase().split(/\s+/).filter(Boolean);
}

export function matches(entry: SearchEntry, state: CatalogState, words = queryWords(state.q)): boolean {
  if (state.os !== "" && !entry.oses.includes(state.os)) return false;
  if (state.status !== "" && entry.status !== state.status) return false;
  if (state.kw !== "" && !entry.keywords.includes(state.kw)) return false;
  return words.every((word) => entry.text.includes(word));
}

const byName = (a: SearchEntry, b: SearchEntry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export function compareEntries(sort: string): (a: SearchEntry, b: SearchEntry) => number {
  if (sort === "updated") {
    return (a, b) => {
      const x = a.latestObserved ?? "";
      const y = b.latestObserved ?? "";
      return (x < y ? 1 : x > y ? -1 : 0) || byName(a, b);
    };
  }
  if (sort === "title") {
    const collator = new Intl.Collator(undefined, { sensitivity: "base" });
    return (a, b) => collator.compare(a.title, b.title) || byName(a, b);
  }
  return byName;
}
