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

/** The facts of one package card that filtering and sorting read. */
export interface CardFacts {
  name: string;
  title: string;
  text: string;
  keywords: string[];
  oses: string[];
  status: string;
  updated: string;
}

export function matches(card: CardFacts, state: CatalogState): boolean {
  if (state.os !== "" && !card.oses.includes(state.os)) return false;
  if (state.status !== "" && card.status !== state.status) return false;
  if (state.kw !== "" && !card.keywords.includes(state.kw)) return false;
  const words = state.q.toLowerCase().split(/\s+/).filter(Boolean);
  return words.every((word) => card.text.includes(word));
}

export function compareCards(sort: string): (a: CardFacts, b: CardFacts) => number {
  if (sort === "updated")
    return (a, b) =>
      (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0) || (a.name < b.name ? -1 : 1);
  if (sort === "title") return (a, b) => a.title.localeCompare(b.title) || (a.name < b.name ? -1 : 1);
  return (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}
