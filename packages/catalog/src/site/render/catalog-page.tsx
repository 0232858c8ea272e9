/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { ComponentChildren } from "preact";
import type { CatalogTab, Facet, SiteModel } from "../model/types.js";
import { scripts } from "./chrome.js";
import { useLink } from "./links.js";
import { PackageCard } from "./package-card.js";

/** How many keywords the rail shows: the most frequent ones. */
const keywordRailSize = 40;

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

function Options({ facets, any }: { facets: Facet[]; any: string }) {
  return (
    <>
      <option value="">{any}</option>
      {facets.map((f) => (
        <option value={f.value} key={f.value}>
          {f.value} ({f.count})
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
        <Options facets={tab.oses} any="any" />
      </Select>
      <Select name="status" label="Status">
        <Choices choices={statusChoices} />
      </Select>
      <Select name="sort" label="Sort">
        <Choices choices={sortChoices} />
      </Select>
      <fieldset class="control view-switch">
        <legend>View</legend>
        <label>
          <input type="radio" name="view" value="" checked /> grid
        </label>
        <label>
          <input type="radio" name="view" value="table" /> table
        </label>
      </fieldset>
      <input type="hidden" name="kw" value="" />
    </form>
  );
}

function KeywordRail({ tab }: { tab: CatalogTab }) {
  if (tab.keywords.length === 0) return null;
  return (
    <nav class="keyword-rail" aria-label="Keywords" data-keywords hidden>
      <h2>Keywords</h2>
      <ul>
        {tab.keywords.slice(0, keywordRailSize).map((k) => (
          <li key={k.value}>
            <a href={`?kw=${encodeURIComponent(k.value)}`} data-kw={k.value}>
              {k.value} <span class="count">{k.count}</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export interface CatalogPageBody {
  heading: string;
  intro?: string;
}

/** The catalog view of one tab: the page at `/`, `/all/` and `/index/<label>/` share it. */
export function CatalogView({
  model,
  tab,
  heading,
  intro,
}: { model: SiteModel; tab: CatalogTab } & CatalogPageBody) {
  return (
    <div class="catalog" data-catalog={tab.id}>
      <h1>{heading}</h1>
      {intro && <p class="intro">{intro}</p>}
      <Tabs model={model} active={tab} />
      <div class="catalog-body">
        <KeywordRail tab={tab} />
        <section class="results" aria-labelledby="results-h">
          <h2 id="results-h" class="visually-hidden">
            Packages
          </h2>
          <Controls tab={tab} />
          <p class="result-count" aria-live="polite" data-count>
            {tab.packages.length} {tab.packages.length === 1 ? "package" : "packages"}
          </p>
          <ul class="pkgs" data-list>
            {tab.packages.map((pkg) => (
              <PackageCard pkg={pkg} key={pkg.name} />
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}

export const catalogScripts = [scripts.catalog];
