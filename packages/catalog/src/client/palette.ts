import {
  decodeSearchIndex,
  type SearchEntry as Entry,
  type SearchIndex,
  searchIndexGlobal,
} from "../site/model/search-index.js";
import { loadAsset, pageLinks } from "./site-root.js";

const maxResults = 20;
let entries: Promise<Entry[]> | undefined;
let dialog: HTMLDialogElement | undefined;

/** Every package of every index, from the search index the catalog view also searches: a script,
 *  so it loads from disk too. An index that cannot load searches as empty. */
function loadEntries(): Promise<Entry[]> {
  entries ??= loadAsset("search-index.js").then(
    () => {
      const index = (globalThis as Record<string, unknown>)[searchIndexGlobal] as SearchIndex | undefined;
      return index ? decodeSearchIndex(index) : [];
    },
    () => [],
  );
  return entries;
}

/** Lower is better; undefined when the entry does not match every word. */
function score(entry: Entry, words: string[]): number | undefined {
  let total = 0;
  for (const word of words) {
    const title = entry.title.toLowerCase();
    const name = entry.name.toLowerCase();
    if (title === word) total += 0;
    else if (title.startsWith(word)) total += 1;
    else if (name.includes(word)) total += 2;
    else if (entry.keywords.some((k) => k.toLowerCase().includes(word))) total += 3;
    else if (entry.description.toLowerCase().includes(word)) total += 4;
    else return undefined;
  }
  return total;
}

function search(all: Entry[], query: string): Entry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return all.slice(0, maxResults);
  const scored: { entry: Entry; score: number }[] = [];
  for (const entry of all) {
    const s = score(entry, words);
    if (s !== undefined) scored.push({ entry, score: s });
  }
  scored.sort((a, b) => a.score - b.score || (a.entry.name < b.entry.name ? -1 : 1));
  return scored.slice(0, maxResults).map((s) => s.entry);
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
): HTMLElementTagNameMap[K] {
  return Object.assign(document.createElement(tag), props);
}

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>("input, button, a[href]")].filter((e) => !e.hidden);
}

function build(): HTMLDialogElement {
  const box = element("dialog", { className: "palette" });
  box.setAttribute("aria-label", "Search every index");
  const label = element("label", {
    htmlFor: "palette-q",
    className: "visually-hidden",
    textContent: "Search every index",
  });
  const input = element("input", {
    id: "palette-q",
    type: "search",
    autocomplete: "off",
    placeholder: "Search packages",
  });
  input.setAttribute("aria-controls", "palette-results");
  const status = element("p", { className: "palette-status" });
  status.setAttribute("role", "status");
  const results = element("ul", { id: "palette-results", className: "palette-results" });
  results.setAttribute("aria-label", "Results");
  const close = element("button", { type: "button", className: "palette-close", textContent: "Close" });
  box.append(label, input, status, results, close);

  const link = pageLinks();
  const render = (found: Entry[]) => {
    results.replaceChildren(
      ...found.map((entry) => {
        const anchor = element("a", { href: link(entry.route) });
        anchor.append(
          element("span", { className: "palette-title", textContent: entry.title }),
          element("span", {
            className: "palette-name",
            textContent: entry.latest ? `${entry.name} ${entry.latest}` : entry.name,
          }),
        );
        const item = element("li");
        item.append(anchor);
        return item;
      }),
    );
    status.textContent = found.length === 0 ? "No packages found" : `${found.length} shown`;
  };
  const update = async () => render(search(await loadEntries(), input.value));
  input.addEventListener("input", () => void update());
  close.addEventListener("click", () => box.close());
  box.addEventListener("click", (event) => {
    if (event.target === box) box.close();
  });
  box.addEventListener("keydown", (event) => {
    const items = focusables(box);
    const links = [...results.querySelectorAll<HTMLElement>("a")];
    const current = links.indexOf(document.activeElement as HTMLElement);
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      const next = current === -1 ? (step === 1 ? 0 : links.length - 1) : current + step;
      (links[next] ?? input).focus();
    } else if (event.key === "Enter" && document.activeElement === input && links[0]) {
      event.preventDefault();
      links[0].click();
    } else if (event.key === "Tab" && items.length > 0) {
      const first = items[0];
      const last = items[items.length - 1];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first?.focus();
      }
    }
  });
  void update();
  return box;
}

/** Opens the palette dialog (built on first use), focusing its search box; closing it, by Escape,
 *  the close button or a click outside, returns focus to where it was. The site script calls it
 *  once this script has loaded (a classic script: it sets a global rather than exporting). */
function openPalette(returnTo: Element | null): void {
  if (!dialog) {
    dialog = build();
    document.body.append(dialog);
  }
  const box = dialog;
  if (box.open) return;
  box.addEventListener(
    "close",
    () => {
      if (returnTo instanceof HTMLElement) returnTo.focus();
    },
    { once: true },
  );
  box.showModal();
  box.querySelector<HTMLInputElement>("input")?.focus();
}

globalThis.pkgOpenPalette = openPalette;
