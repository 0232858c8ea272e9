import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import type { CardView } from "./card-view.js";
import {
  buildSearchIndex,
  decodeSearchIndex,
  inTab,
  type SearchIndex,
  searchIndexGlobal,
  searchIndexScript,
} from "./search-index.js";

function card(name: string, extra: Partial<CardView> = {}): CardView {
  return {
    name,
    title: name.split("/").at(-1) ?? name,
    description: `The ${name} tool`,
    route: `/${name}/`,
    keywords: [],
    oses: [],
    status: "active",
    ...extra,
  };
}

const input = {
  indexes: [
    {
      label: "a",
      excludeFromAll: false,
      packages: [
        card("a/x/one", {
          keywords: ["cli", "http"],
          oses: ["linux", "darwin"],
          latest: "1.2.0",
          latestObserved: "2026-01-02T03:04:05Z",
          logoHref: "/index/a/p/x/one/o/sha256/ab.svg",
        }),
        card("a/x/two", { status: "deprecated", keywords: ["cli"] }),
      ],
    },
    {
      label: "b",
      excludeFromAll: true,
      packages: [card("b/y/three", { status: "yanked", oses: ["linux"] })],
    },
  ],
};

describe("search index", () => {
  it("stores each OS and keyword once and decodes every card as it was", () => {
    const index = buildSearchIndex(input);
    expect(index.oses).toEqual(["darwin", "linux"]);
    expect(index.keywords).toEqual(["cli", "http"]);
    const entries = decodeSearchIndex(index);
    const cards = input.indexes.flatMap((i) => i.packages);
    expect(entries.map(({ index: _i, text: _t, ...rest }) => rest)).toEqual(cards);
    expect(entries.map((e) => e.index)).toEqual([0, 0, 1]);
    expect(entries[0]?.text).toBe("a/x/one one the a/x/one tool cli http");
  });

  it("lists in the all tab only the indexes not kept out of it", () => {
    const index = buildSearchIndex(input);
    const entries = decodeSearchIndex(index);
    expect(entries.filter(inTab(index, "all")).map((e) => e.name)).toEqual(["a/x/one", "a/x/two"]);
    expect(entries.filter(inTab(index, "b")).map((e) => e.name)).toEqual(["b/y/three"]);
    const single = buildSearchIndex({
      indexes: [{ ...input.indexes[1], label: "b" }] as typeof input.indexes,
    });
    expect(decodeSearchIndex(single).filter(inTab(single, "all"))).toHaveLength(1);
  });

  it("is a script that sets the global to the same document, whatever the strings hold", () => {
    const hostile = card("a/x/q", {
      description: `quote " backslash \\ </script> \u2028 line separator ${"é"}`,
    });
    const index = buildSearchIndex({ indexes: [{ label: "a", excludeFromAll: false, packages: [hostile] }] });
    const sandbox: { self?: Record<string, unknown> } = {};
    sandbox.self = sandbox as Record<string, unknown>;
    runInNewContext(searchIndexScript(index), sandbox);
    expect((sandbox as Record<string, unknown>)[searchIndexGlobal] as SearchIndex).toEqual(index);
  });
});
