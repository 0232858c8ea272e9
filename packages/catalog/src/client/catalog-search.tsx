/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import { render } from "preact";
import { catalogPageSize, formatCount } from "../site/model/catalog-pages.js";
import {
  decodeSearchIndex,
  inTab,
  type SearchEntry,
  type SearchIndex,
  searchIndexGlobal,
} from "../site/model/search-index.js";
import { LinkContext } from "../site/render/links.js";
import { PackageCard } from "../site/render/package-card.js";
import type { CatalogElements, StartSearch } from "./catalog.js";
import { pageLinks } from "./site-root.js";
import { type CatalogState, compareEntries, matches, narrows, queryWords } from "./state.js";

/** The count line: `1 package`, `12 of 10,000 packages`. */
function countText(shown: number, total: number): string {
  const noun = total === 1 ? "package" : "packages";
  return shown === total
    ? `${formatCount(total)} ${noun}`
    : `${formatCount(shown)} of ${formatCount(total)} ${noun}`;
}

/**
 * Takes over the catalog list: with a query, a filter or a sort it shows the matching packages of
 * the tab from the search index (a page at a time, "Show more" for the next); with none it puts the
 * pre-rendered page back exactly as it was.
 */
const startSearch: StartSearch = ({ root, list, count, pager }: CatalogElements) => {
  const index = (globalThis as Record<string, unknown>)[searchIndexGlobal] as SearchIndex | undefined;
  if (!index) throw new Error("the search index did not load");
  // in name order once, so the default order needs no sort per keystroke (filtering keeps it)
  const entries = decodeSearchIndex(index)
    .filter(inTab(index, root.dataset.catalog ?? "all"))
    .sort(compareEntries(""));
  const original = { cards: [...list.childNodes], count: count?.textContent ?? "" };
  const links = pageLinks();
  const more = Object.assign(document.createElement("button"), { type: "button", className: "more" });
  more.hidden = true;
  list.after(more);
  let results: SearchEntry[] = [];
  let shown = 0;
  let owned = false;

  function renderCards(): void {
    render(
      <LinkContext.Provider value={links}>
        {results.slice(0, shown).map((entry) => (
          <PackageCard pkg={entry} key={entry.name} />
        ))}
      </LinkContext.Provider>,
      list,
    );
    const left = results.length - shown;
    more.hidden = left <= 0;
    more.textContent = `Show ${Math.min(left, catalogPageSize)} more`;
    if (count) count.textContent = countText(results.length, entries.length);
  }

  more.addEventListener("click", () => {
    shown += catalogPageSize;
    renderCards();
  });

  return (state: CatalogState) => {
    if (!narrows(state)) {
      if (owned) {
        render(null, list);
        list.replaceChildren(...original.cards);
        if (count) count.textContent = original.count;
        owned = false;
      }
      more.hidden = true;
      if (pager) pager.hidden = false;
    } else {
      if (!owned) {
        list.replaceChildren();
        owned = true;
      }
      const words = queryWords(state.q);
      results = entries.filter((entry) => matches(entry, state, words));
      if (state.sort !== "") results.sort(compareEntries(state.sort));
      shown = catalogPageSize;
      renderCards();
      if (pager) pager.hidden = true;
    }
    performance.measure("pkg-search", "pkg-search-start");
  };
};

globalThis.pkgCatalogSearch = startSearch;
