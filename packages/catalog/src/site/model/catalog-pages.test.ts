import { describe, expect, it } from "vitest";
import { catalogPageRoute, formatCount, pageCount, pagerNumbers } from "./catalog-pages.js";

describe("catalog pages", () => {
  it("puts page 1 at the tab's route and later pages under it", () => {
    expect(catalogPageRoute("/all/", 1)).toBe("/all/");
    expect(catalogPageRoute("/all/", 2)).toBe("/all/page/2/");
    expect(catalogPageRoute("/index/ocx.sh/", 17)).toBe("/index/ocx.sh/page/17/");
  });

  it.each([
    [0, 1],
    [1, 1],
    [60, 1],
    [61, 2],
    [10_000, 167],
  ])("%i packages make %i pages", (total, pages) => {
    expect(pageCount(total)).toBe(pages);
  });

  it.each([
    [1, 1, [1]],
    [1, 3, [1, 2, 3]],
    [1, 10, [1, 2, 3, undefined, 10]],
    [5, 10, [1, 2, 3, 4, 5, 6, 7, undefined, 10]],
    [6, 12, [1, undefined, 4, 5, 6, 7, 8, undefined, 12]],
    [10, 10, [1, undefined, 8, 9, 10]],
    [4, 167, [1, 2, 3, 4, 5, 6, undefined, 167]],
  ])("page %i of %i shows %j", (current, count, expected) => {
    expect(pagerNumbers(current, count)).toEqual(expected);
  });

  it('writes a count as toLocaleString("en") does', () => {
    const samples = [
      0, 1, 9, 10, 99, 100, 999, 1000, 1001, 9999, 10000, 12345, 99999, 100000, 999999, 1000000,
    ];
    for (let n = 1; n < 1e13; n = n * 7 + 3) samples.push(n);
    for (const n of samples) expect(formatCount(n)).toBe(n.toLocaleString("en"));
  });
});
