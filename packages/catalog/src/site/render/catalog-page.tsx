/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { ComponentChildren } from "preact";
import {
  type CatalogPage,
  catalogPageRoute,
  catalogPageSize,
  formatCount,
  pagerNumbers,
} from "../model/catalog-pages.js";
import { osLabel } from "../model/os-label.js";
import type { CatalogTab, Facet, SiteModel } from "../model/types.js";
import { scripts } from "./chrome.js";
import { useLink } from "./links.js";
import { PackageCard } from "./package-card.js";

/** How many keywords the rail shows: the most frequent ones. */
export const keywordRailSize = 40;

function Tabs({ model, active }: { model: SiteModel; active: CatalogTab }) {
  const link = useLink();
  return (
    <nav class="tabs" aria-label="Indexes">
      <ul>
        {model.tabs.map((tab) => (
          <li key={tab.id}>
            <a href={link(tab.route)} aria-current={tab === active ? "page" : undefined} data-tab={tab.id}>
              {tab.label} <span class="count">{tab.packages.length}</span>
              {tab.isDefault && <span class="badge">default</span>}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** `<option>`s of a facet: the value is the URL query's, the text `label(value) (count)`. */
function Options({ facets, any, label }: { facets: Facet[]; any: string; label: (value: string) => string }) {
  return (
    <>
      <option value="">{any}</option>
      {facets.map((f) => (
        <option value={f.value} key={f.value}>
          {label(f.value)} ({f.count})
        </option>
      ))}
    </>
  );
}

/** Fixed `<option>`s as value and text. */
type Choice = readonly [value: string, text: string];

const statusChoices: Choice[] = [
  ["", "any"],
  ["active", "active"],
  ["deprecated", "deprecated"],
  ["yanked", "yanked"],
];
const sortChoices: Choice[] = [
  ["", "name"],
  ["updated", "recently updated"],
  ["title", "title"],
];

function Choices({ choices }: { choices: Choice[] }) {
  return (
    <>
      {choices.map(([value, text]) => (
        <option value={value} key={value}>
          {text}
        </option>
      ))}
    </>
  );
}

/** A labelled `<select>`; `name` is its URL query key. */
function Select({ name, label, children }: { name: string; label: string; children: ComponentChildren }) {
  return (
    <div class="control">
      <label for={`f-${name}`}>{label}</label>
      <select id={`f-${name}`} name={name}>
        {children}
      </select>
    </div>
  );
}

/** Filters, search, sort and view switch: hidden until the catalog script enhances them, since they
 *  do nothing without it. Their names are the URL query keys. */
function Controls({ tab }: { tab: CatalogTab }) {
  return (
    <form class="controls" aria-label="Filter packages" data-controls hidden>
      <div class="control control-search">
        <label for="f-q">Search</label>
        <input id="f-q" type="search" name="q" autocomplete="off" />
      </div>
      <Select name="os" label="OS">
        <Options facets={tab.oses} any="any" label={osLabel} />
      </Select>
      <Select name="status" label="Status">
        <Choices choices={statusChoices} />
      </Select>
      <Select name="sort" label="Sort">
        <Choices choices={sortChoices} />
      </Select>
      <fieldset class="control view-switch">
        <legend>View</legend>
        <div class="segmented">
          <label>
            <input type="radio" name="view" value="" checked /> grid
          </label>
          <label>
            <input type="radio" name="view" value="table" /> table
          </label>
        </div>
      </fieldset>
      <input type="hidden" name="kw" value="" />
    </form>
  );
}

function KeywordRail({ tab }: { tab: CatalogTab }) {
  if (tab.keywords.length === 0) return null;
  return (
    <nav class="keyword-rail" aria-label="Keywords" data-keywords hidden>
      {/* folded on a phone, so the packages come first; the site script opens it on a wide screen */}
      <details class="keyword-fold" data-keyword-fold>
        <summary>Keywords</summary>
        <ul>
          {tab.keywords.slice(0, keywordRailSize).map((k) => (
            <li key={k.value}>
              <a href={`?kw=${encodeURIComponent(k.value)}`} data-kw={k.value}>
                {k.value} <span class="count">{k.count}</span>
              </a>
            </li>
          ))}
        </ul>
      </details>
    </nav>
  );
}

export interface CatalogPageBody {
  heading: string;
  /** The heading is for the document outline only: the header's wordmark already names the page
   *  (the front page of a catalog without a description). */
  headingHidden?: boolean;
  intro?: string;
}

/** `1 package`, `60 packages`, `Packages 61–120 of 10,000`. */
export function pageCountText(page: CatalogPage, total: number): string {
  if (page.count === 1) return `${formatCount(total)} ${total === 1 ? "package" : "packages"}`;
  const first = (page.number - 1) * catalogPageSize + 1;
  const last = first + page.packages.length - 1;
  return `Packages ${formatCount(first)}–${formatCount(last)} of ${formatCount(total)}`;
}

/** Links to the tab's other pages: previous, the numbers around the current one, next. They work
 *  without JavaScript; the catalog script hides them while a search shows its own results. */
function Pager({ tab, page }: { tab: CatalogTab; page: CatalogPage }) {
  const link = useLink();
  if (page.count <= 1) return null;
  const to = (n: number) => link(catalogPageRoute(tab.route, n));
  return (
    <nav class="pager" aria-label="Pages" data-pager>
      <ul>
        <li>
          {page.number > 1 ? (
            <a href={to(page.number - 1)} rel="prev">
              Previous
            </a>
          ) : (
            <span aria-disabled="true">Previous</span>
          )}
        </li>
        {pagerNumbers(page.number, page.count).map((n, i) => (
          <li key={n ?? `gap-${i}`}>
            {n === undefined ? (
              <span class="gap">…</span>
            ) : n === page.number ? (
              <a href={to(n)} aria-current="page" aria-label={`Page ${n}`}>
                {n}
              </a>
            ) : (
              <a href={to(n)} aria-label={`Page ${n}`}>
                {n}
              </a>
            )}
          </li>
        ))}
        <li>
          {page.number < page.count ? (
            <a href={to(page.number + 1)} rel="next">
              Next
            </a>
          ) : (
            <span aria-disabled="true">Next</span>
          )}
        </li>
      </ul>
    </nav>
  );
}

/** One page of the catalog view of a tab: `/`, `/all/`, `/index/<label>/` and their later pages. */
export function CatalogView({
  model,
  tab,
  page,
  heading,
  headingHidden = false,
  intro,
}: { model: SiteModel; tab: CatalogTab; page: CatalogPage } & CatalogPageBody) {
  return (
    <div class="catalog" data-catalog={tab.id} data-page={page.number}>
      {headingHidden ? (
        <h1 class="visually-hidden">{heading}</h1>
      ) : (
        <div class="catalog-hero">
          <h1>{heading}</h1>
          {intro && <p class="intro">{intro}</p>}
        </div>
      )}
      <Tabs model={model} active={tab} />
      <div class="catalog-body">
        <KeywordRail tab={tab} />
        <section class="results" aria-labelledby="results-h">
          <h2 id="results-h" class="visually-hidden">
            Packages
          </h2>
          <Controls tab={tab} />
          <p class="result-count" aria-live="polite" data-count>
            {pageCountText(page, tab.packages.length)}
          </p>
          <ul class="pkgs" data-list>
            {page.packages.map((pkg) => (
              <PackageCard pkg={pkg} key={pkg.name} />
            ))}
          </ul>
          <Pager tab={tab} page={page} />
        </section>
      </div>
    </div>
  );
}

export const catalogScripts = [scripts.catalog];
