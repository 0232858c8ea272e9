import {
  type CardFacts,
  type CatalogState,
  compareCards,
  formatState,
  matches,
  parseState,
  stateKeys,
} from "./state.js";

interface Card extends CardFacts {
  element: HTMLElement;
}

const form = document.querySelector<HTMLFormElement>("[data-controls]");
const list = document.querySelector<HTMLElement>("[data-list]");
const count = document.querySelector<HTMLElement>("[data-count]");
const rail = document.querySelector<HTMLElement>("[data-keywords]");

function words(value: string | undefined): string[] {
  return value ? value.split(" ").filter(Boolean) : [];
}

function readCards(container: HTMLElement): Card[] {
  return [...container.querySelectorAll<HTMLElement>(".card")].map((element) => {
    const data = element.dataset;
    const title = element.querySelector(".card-title")?.textContent ?? "";
    const desc = element.querySelector(".card-desc")?.textContent ?? "";
    return {
      element,
      name: data.name ?? "",
      title,
      text: `${data.name} ${title} ${desc} ${data.kw}`.toLowerCase(),
      keywords: words(data.kw),
      oses: words(data.os),
      status: data.status ?? "",
      updated: data.updated ?? "",
    };
  });
}

function field(name: string): HTMLInputElement | HTMLSelectElement | RadioNodeList | null {
  return (
    (form?.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | RadioNodeList | null) ?? null
  );
}

function writeFields(state: CatalogState): void {
  for (const key of stateKeys) {
    const element = field(key);
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

function readFields(): CatalogState {
  const state = parseState("");
  for (const key of stateKeys) state[key] = field(key)?.value ?? "";
  return state;
}

function setup(container: HTMLElement, controls: HTMLFormElement): void {
  const cards = readCards(container);
  let sorted = "";

  function apply(state: CatalogState): void {
    writeFields(state);
    let shown = 0;
    for (const card of cards) {
      const visible = matches(card, state);
      card.element.hidden = !visible;
      if (visible) shown++;
    }
    if (state.sort !== sorted) {
      const order = [...cards].sort(compareCards(state.sort));
      container.append(...order.map((card) => card.element));
      sorted = state.sort;
    }
    container.classList.toggle("table", state.view === "table");
    if (count) count.textContent = `${shown} of ${cards.length} packages`;
    const query = formatState(state);
    for (const tab of document.querySelectorAll<HTMLAnchorElement>("a[data-tab]")) {
      tab.search = query;
    }
  }

  function commit(push: boolean): void {
    const state = readFields();
    const url = `${location.pathname}${formatState(state)}`;
    if (push) history.pushState(null, "", url);
    else history.replaceState(null, "", url);
    apply(state);
  }

  controls.hidden = false;
  if (rail) rail.hidden = false;
  controls.addEventListener("submit", (event) => event.preventDefault());
  controls.addEventListener("input", (event) =>
    commit(
      (event.target as HTMLElement).tagName !== "INPUT" ||
        (event.target as HTMLInputElement).type !== "search",
    ),
  );
  controls.addEventListener("change", (event) => {
    if ((event.target as HTMLInputElement).type === "search") commit(true);
  });
  rail?.addEventListener("click", (event) => {
    const link = (event.target as HTMLElement).closest<HTMLAnchorElement>("a[data-kw]");
    if (!link) return;
    event.preventDefault();
    const kw = field("kw");
    if (kw) kw.value = kw.value === link.dataset.kw ? "" : (link.dataset.kw ?? "");
    commit(true);
  });
  addEventListener("popstate", () => apply(parseState(location.search)));
  apply(parseState(location.search));
}

if (form && list) setup(list, form);
