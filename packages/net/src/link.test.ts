import { describe, expect, test } from "vitest";
import { nextLink } from "./link.js";

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

  test("registry tag pages: a relative target resolved against the page", () => {
    const page = new URL("https://reg.example/v2/a/tags/list?n=2");
    expect(nextLink('</v2/a/tags/list?last=b&n=2>; rel="next"', page)).toBe(
      "https://reg.example/v2/a/tags/list?last=b&n=2",
    );
    expect(nextLink('<https://x/prev>; rel="prev", <https://x/next>; rel=next', page)).toBe("https://x/next");
    expect(nextLink('<https://x/a>; title="next"; rel="first"', page)).toBeUndefined();
  });
});
