import type { CatalogTab, PackageSummary } from "./types.js";

/** Packages per catalog page: a first view as light as a small catalog's, whatever the catalog's size. */
export const catalogPageSize = 60;

/** One page of a tab's list, sorted by name like the tab. */
export interface CatalogPage {
  /** 1-based. */
  number: number;
  /** Pages of the tab, at least 1 (an empty tab has one empty page). */
  count: number;
  route: string;
  packages: PackageSummary[];
}

/** Page 1 is the tab's own route; page n is `<tab route>page/<n>/`. */
export function catalogPageRoute(tabRoute: string, number: number): string {
  return number <= 1 ? tabRoute : `${tabRoute}page/${number}/`;
}

/**
 * A count (a whole number, not negative) as English writes it (`10,000`), as `toLocaleString("en")`
 * does: whose first call loads ICU's number formatter, 15 ms of a one-package rebuild.
 */
export function formatCount(n: number): string {
  const digits = String(n);
  let grouped = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let at = grouped.length; at < digits.length; at += 3) grouped += `,${digits.slice(at, at + 3)}`;
  return grouped;
}

export function pageCount(total: number, size = catalogPageSize): number {
  return Math.max(1, Math.ceil(total / size));
}

/** The pages of a tab. */
export function catalogPages(tab: CatalogTab, size = catalogPageSize): CatalogPage[] {
  const count = pageCount(tab.packages.length, size);
  return Array.from({ length: count }, (_, i) => ({
    number: i + 1,
    count,
    route: catalogPageRoute(tab.route, i + 1),
    packages: tab.packages.slice(i * size, (i + 1) * size),
  }));
}

/** The page numbers a pager shows: the first, the last, and two either side of the current one,
 *  with `undefined` where numbers are left out. */
export function pagerNumbers(current: number, count: number): (number | undefined)[] {
  const shown = new Set([1, count]);
  for (let n = current - 2; n <= current + 2; n++) if (n >= 1 && n <= count) shown.add(n);
  const sorted = [...shown].sort((a, b) => a - b);
  const numbers: (number | undefined)[] = [];
  for (const n of sorted) {
    const previous = numbers.at(-1);
    if (previous !== undefined && n - previous === 2) numbers.push(n - 1);
    else if (previous !== undefined && n - previous > 2) numbers.push(undefined);
    numbers.push(n);
  }
  return numbers;
}
