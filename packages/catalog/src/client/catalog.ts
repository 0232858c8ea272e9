import { loadAsset } from "./site-root.js";
import { type CatalogState, formatState, narrows, parseState, stateKeys } from "./state.js";

/** What the search module (catalog-search.tsx, loaded on first use) sets: a function that takes over
 *  the list and returns how to show a state in it. */
export type StartSearch = (catalog: CatalogElements) => (state: CatalogState) => void;

export interface CatalogElements {
  root: HTMLElement;
  list: HTMLElement;
  count: HTMLElement | null;
  pager: HTMLElement | null;
}

declare global {
  var pkgCatalogSearch: StartSearch | undefined;
}

const root = document.querySelector<HTMLElement>("[data-catalog]");
const form = document.querySelector<HTMLFormElement>("[data-controls]");
const list = document.querySelector<HTMLElement>("[data-list]");
const rail = document.querySelector<HTMLElement>("[data-keywords]");

type Field = HTMLInputElement | HTMLSelectElement | RadioNodeList;

function field(controls: HTMLFormElement, name: string): Field | null {
  return controls.elements.namedItem(name) as Field | null;
}

function writeFields(controls: HTMLFormElement, state: CatalogState): void {
  for (const key of stateKeys) {
    const element = field(controls, key);
    // a radio list cannot be set to an empty value (the grid view's) through its value property
    if (element instanceof RadioNodeList) {
      for (const radio of element)
        if (radio instanceof HTMLInputElement) radio.checked = radio.value === state[key];
    } else if (element) {
      element.value = state[key];
    }
  }
  for (const link of rail?.querySelectorAll<HTMLAnchorElement>("a[data-kw]") ?? []) {
    if (link.dataset.kw === state.kw) link.setAttribute("aria-current", "true");
    else link.removeAttribute("aria-current");
  }
}

function readFields(controls: HTMLFormElement): CatalogState {
  const state = parseState("");
  for (const key of stateKeys) state[key] = field(controls, key)?.value ?? "";
  return state;
}

function setup(catalog: HTMLElement, controls: HTMLFormElement, container: HTMLElement): void {
  let search: Promise<(state: CatalogState) => void> | undefined;
  let latest = parseState("");

  // the search index and its code load on first use only: the first view stays light at any size
  function startSearch(): Promise<(state: CatalogState) => void> {
    search ??= Promise.all([loadAsset("search-index.js"), loadAsset("catalog-search.js")]).then(() => {
      if (!globalThis.pkgCatalogSearch) throw new Error("the catalog search did not load");
      return globalThis.pkgCatalogSearch({
        root: catalog,
        list: container,
        count: document.querySelector<HTMLElement>("[data-count]"),
        pager: document.querySelector<HTMLElement>("[data-pager]"),
      });
    });
    return search;
  }

  function apply(state: CatalogState): void {
    // the search module measures from here to the list redrawn (`pkg-search`)
    performance.mark("pkg-search-start");
    latest = state;
    writeFields(controls, state);
    container.classList.toggle("table", state.view === "table");
    const query = formatState(state);
    for (const tab of document.querySelectorAll<HTMLAnchorElement>("a[data-tab]")) tab.search = query;
    if (search === undefined && !narrows(state)) return;
    startSearch().then(
      (show) => {
        // a slow first load must not show an older state over a newer one
        if (state === latest) show(state);
      },
      () => {
        search = undefined;
        const count = document.querySelector<HTMLElement>("[data-count]");
        if (count) count.textContent = "Search is unavailable: the search index did not load.";
      },
    );
  }

  function commit(push: boolean): void {
    const state = readFields(controls);
    const url = `${location.pathname}${formatState(state)}`;
    if (push) history.pushState(null, "", url);
    else history.replaceState(null, "", url);
    apply(state);
  }

  controls.hidden = false;
  if (rail) rail.hidden = false;
  controls.addEventListener("submit", (event) => event.preventDefault());
  controls.addEventListener("focusin", () => void startSearch().catch(() => {}), { once: true });
  controls.addEventListener("input", (event) => {
    const target = event.target as HTMLInputElement;
    // typing replaces the history entry; choosing a filter adds one
    commit(target.tagName !== "INPUT" || target.type !== "search");
  });
  controls.addEventListener("change", (event) => {
    if ((event.target as HTMLInputElement).type === "search") commit(true);
  });
  rail?.addEventListener("click", (event) => {
    const link = (event.target as HTMLElement).closest<HTMLAnchorElement>("a[data-kw]");
    if (!link) return;
    event.preventDefault();
    const kw = field(controls, "kw");
    if (kw) kw.value = kw.value === link.dataset.kw ? "" : (link.dataset.kw ?? "");
    commit(true);
  });
  addEventListener("popstate", () => apply(parseState(location.search)));
  apply(parseState(location.search));
}

if (root && form && list) setup(root, form, list);
