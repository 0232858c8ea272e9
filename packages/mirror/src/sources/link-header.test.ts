import { describe, expect, test } from "vitest";
import { nextLink } from "./link-header.js";

describe("Link rel=next", () => {
  const base = "https://api.example.com/repos/a/b/releases?per_page=100";

  test("finds next among several links, quoted or not, with several relations", () => {
    expect(
      nextLink(
        '<https://api.example.com/x?page=1>; rel="prev", <https://api.example.com/x?page=3>; rel="next", <https://api.example.com/x?page=9>; rel="last"',
        base,
      ),
    ).toBe("https://api.example.com/x?page=3");
    expect(nextLink("</x?page=2>; rel=next", base)).toBe("https://api.example.com/x?page=2");
    expect(
      nextLink(
        ['<https://a.example/1>; rel="last"', '<https://a.example/2>; title="t"; rel="next last"'],
        base,
      ),
    ).toBe("https://a.example/2");
  });

  test("no header, or no next: the last page", () => {
    expect(nextLink(undefined, base)).toBeUndefined();
    expect(
      nextLink(
        '<https://api.example.com/x?page=1>; rel="prev", <https://api.example.com/x?page=1>; rel="first"',
        base,
      ),
    ).toBeUndefined();
  });
});
