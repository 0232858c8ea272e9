import { describe, expect, it } from "vitest";
import { CATALOG_JSON_START, catalogJson } from "../../src/site/model/catalog-json.js";
import { platformMatrix, platformsOf } from "../../src/site/model/platforms.js";
import { buildSiteModel } from "../../src/site/model/site-model.js";
import { groupTags, latestGroup } from "../../src/site/model/tags.js";
import { checkTopLevelRoutes } from "../../src/site/model/top-level.js";
import { compareTagsNewestFirst } from "../../src/site/model/versions.js";
import { catalogConfig, digest, imageIndex, loadedIndex, loadedPackage } from "../support/model-fixtures.js";

const observed = "2026-01-01T00:00:00Z";
const later = "2026-02-01T00:00:00Z";

describe("tags and versions", () => {
  const tags = {
    latest: { content: digest(3), observed: later },
    "1": { content: digest(3), observed: later },
    "1.2": { content: digest(3), observed: later },
    "1.2.10": { content: digest(3), observed: later },
    "1.2.10_20260201": { content: digest(3), observed: later },
    "1.2.9": { content: digest(2), observed },
    "1.10.0-rc1": { content: digest(4), observed, yanked: { at: later, reason: "broken" } },
  };

  it("orders versions numerically, more specific first, plain before suffixed", () => {
    const sorted = ["1", "1.2.9", "latest", "1.2.10_20260201", "1.2", "1.2.10", "v2.0"].sort(
      compareTagsNewestFirst,
    );
    expect(sorted).toEqual(["v2.0", "1.2.10", "1.2.10_20260201", "1.2.9", "1.2", "1", "latest"]);
  });

  it("groups tags sharing one content digest as aliases, newest group first", () => {
    const groups = groupTags(tags);
    expect(groups.map((g) => g.tag)).toEqual(["1.10.0-rc1", "1.2.10", "1.2.9"]);
    const current = groups[1];
    expect(current?.aliases).toEqual(["1.2.10_20260201", "1.2", "1", "latest"]);
    expect(current?.observed).toBe(later);
    expect(groups[0]).toMatchObject({ yanked: true, yankedReason: "broken" });
  });

  it("takes the latest version from the latest tag, else the newest unyanked version", () => {
    expect(latestGroup(groupTags(tags), tags)?.tag).toBe("1.2.10");
    const { latest: _, ...withoutLatest } = tags;
    expect(latestGroup(groupTags(withoutLatest), withoutLatest)?.tag).toBe("1.2.10");
    const onlyYanked = { "2.0": { content: digest(9), observed, yanked: { at: observed } } };
    expect(latestGroup(groupTags(onlyYanked), onlyYanked)).toBeUndefined();
  });
});

describe("platform matrix", () => {
  it("reads libc from os.features and builds rows per OS and libc", () => {
    const index = imageIndex([
      { os: "linux", arch: "amd64", libc: "glibc" },
      { os: "linux", arch: "arm64", libc: "musl" },
      { os: "linux", arch: "amd64", libc: "glibc" },
      { os: "darwin", arch: "arm64" },
      { os: "windows", arch: "amd64" },
    ]);
    const platforms = platformsOf(index);
    expect(platforms).toEqual([
      { os: "linux", arch: "amd64", libc: "glibc" },
      { os: "linux", arch: "arm64", libc: "musl" },
      { os: "darwin", arch: "arm64" },
      { os: "windows", arch: "amd64" },
    ]);
    const matrix = platformMatrix(platforms);
    expect(matrix.arches).toEqual(["amd64", "arm64"]);
    expect(matrix.rows.map((r) => [r.label, r.arches])).toEqual([
      ["linux (glibc)", [true, false]],
      ["linux (musl)", [false, true]],
      ["darwin", [false, true]],
      ["windows", [true, false]],
    ]);
  });
});

function twoIndexModel(
  extra: Parameters<typeof catalogConfig>[1] = {},
  sources: Parameters<typeof catalogConfig>[0] = [{ root: true }, { excludeFromAll: true }],
) {
  const images = new Map([
    [
      digest(3),
      imageIndex([{ os: "linux", arch: "amd64" }], {
        "org.opencontainers.image.licenses": "MIT",
        "org.opencontainers.image.source": "https://github.com/o/r",
        "org.opencontainers.image.revision": "abc123",
      }),
    ],
  ]);
  const tags = { latest: { content: digest(3), observed }, "1.0.0": { content: digest(3), observed } };
  const config = catalogConfig(sources, extra);
  const first = loadedIndex("main.sh", 0, [
    loadedPackage("main.sh", "tools/zeta", {
      tags,
      images,
      keywords: ["cli", "rust"],
      owners: ["a b/c?d", "plain"],
    }),
    loadedPackage("main.sh", "tools/alpha", { keywords: ["cli"], status: "deprecated" }),
  ]);
  const second = loadedIndex("extra.dev", 1, [loadedPackage("extra.dev", "x/beta", { keywords: ["go"] })]);
  const warnings: string[] = [];
  return { model: buildSiteModel(config, [first, second], (w) => warnings.push(w)), warnings };
}

describe("site model", () => {
  it("routes root packages bare and other indexes' under their own name", () => {
    const { model } = twoIndexModel();
    expect(model.indexes.map((i) => [i.label, i.route, i.packages.map((p) => p.route)])).toEqual([
      ["main.sh", "/index/main.sh/", ["/tools/alpha/", "/tools/zeta/"]],
      ["extra.dev", "/index/extra.dev/", ["/extra.dev/x/beta/"]],
    ]);
  });

  it("keeps excludeFromAll indexes out of all (count and facets) but gives them their tab", () => {
    const { model } = twoIndexModel();
    const [all, main, extra] = model.tabs;
    expect(all?.packages.map((p) => p.name)).toEqual(["main.sh/tools/alpha", "main.sh/tools/zeta"]);
    expect(all?.keywords).toEqual([
      { value: "cli", count: 2 },
      { value: "rust", count: 1 },
    ]);
    expect(all?.oses).toEqual([{ value: "linux", count: 1 }]);
    expect(main?.packages).toHaveLength(2);
    expect(extra?.packages).toHaveLength(1);
    expect(extra?.route).toBe("/index/extra.dev/");
    expect(catalogJson(model).packages.map((p) => p.name)).toContain("extra.dev/x/beta");
    // the start a later build knows its own output by
    expect(JSON.stringify(catalogJson(model)).startsWith(CATALOG_JSON_START)).toBe(true);
    expect(CATALOG_JSON_START).toBe('{"format_version":1,"generator":"pkg-catalog",');
  });

  it("ignores excludeFromAll in a one-index catalog", () => {
    const config = catalogConfig([{ root: true, excludeFromAll: true }]);
    const model = buildSiteModel(config, [loadedIndex("one", 0, [loadedPackage("one", "a/b")])], () => {});
    expect(model.tabs[0]?.packages).toHaveLength(1);
  });

  it("badges the default source, else the root source; without either, / opens on all", () => {
    expect(twoIndexModel().model.defaultTab.id).toBe("main.sh");
    const explicit = twoIndexModel({}, [{ root: true }, { default: true }]).model;
    expect(explicit.tabs.filter((t) => t.isDefault).map((t) => t.id)).toEqual(["extra.dev"]);
    expect(explicit.defaultTab.id).toBe("extra.dev");
    expect(twoIndexModel({}, [{}, {}]).model.defaultTab.id).toBe("all");
  });

  it("fills the owner template with the URL-encoded login: source's, else top-level, else the forge default", () => {
    const zeta = (m: ReturnType<typeof twoIndexModel>["model"]) =>
      m.indexes[0]?.packages.find((p) => p.path === "tools/zeta")?.owners;
    expect(zeta(twoIndexModel().model)).toEqual([
      { login: "a b/c?d", href: "https://github.com/a%20b%2Fc%3Fd" },
      { login: "plain", href: "https://github.com/plain" },
    ]);
    expect(zeta(twoIndexModel({ ownerUrl: "https://forge.example/u/{login}/" }).model)?.[1]?.href).toBe(
      "https://forge.example/u/plain/",
    );
    const perSource = twoIndexModel({ ownerUrl: "https://top.example/{login}" }, [
      { root: true, ownerUrl: "https://source.example/~{login}" },
      {},
    ]).model;
    expect(zeta(perSource)?.[1]?.href).toBe("https://source.example/~plain");
  });

  it("takes latest, platforms, license, source and revision from the latest image index", () => {
    const zeta = twoIndexModel().model.indexes[0]?.packages.find((p) => p.path === "tools/zeta");
    expect(zeta).toMatchObject({
      latest: "1.0.0",
      oses: ["linux"],
      license: { text: "MIT" },
      source: { text: "https://github.com/o/r", href: "https://github.com/o/r" },
      revision: { text: "abc123" },
    });
    const alpha = twoIndexModel().model.indexes[0]?.packages.find((p) => p.path === "tools/alpha");
    expect(alpha?.status).toBe("deprecated");
    expect(alpha?.latest).toBeUndefined();
  });

  it("links annotation values only when they are https URLs", () => {
    const images = new Map([
      [digest(5), imageIndex([], { "org.opencontainers.image.source": "javascript:alert(1)" })],
    ]);
    const pkg = loadedPackage("x", "a/b", { tags: { latest: { content: digest(5), observed } }, images });
    const model = buildSiteModel(catalogConfig([{ root: true }]), [loadedIndex("x", 0, [pkg])], () => {});
    expect(model.indexes[0]?.packages[0]?.source).toEqual({ text: "javascript:alert(1)" });
  });

  it("skips packages whose path is not a safe route, with a warning", () => {
    const bad = loadedPackage("x", "../../etc");
    const good = loadedPackage("x", "a/b");
    const warnings: string[] = [];
    const model = buildSiteModel(catalogConfig([{ root: true }]), [loadedIndex("x", 0, [bad, good])], (w) =>
      warnings.push(w),
    );
    expect(model.indexes[0]?.packages.map((p) => p.path)).toEqual(["a/b"]);
    expect(warnings).toEqual(['x: skipped package "../../etc": not a safe route']);
  });
});

describe("top-level route collisions", () => {
  const model = (label: string, path: string, root: boolean) =>
    buildSiteModel(
      catalogConfig([{ root }]),
      [loadedIndex(label, 0, [loadedPackage(label, path)])],
      () => {},
    );
  const inputs = { docs: true, sitemap: true, publicNames: ["robots.txt"] };

  it("accepts a site whose names are all distinct", () => {
    expect(() => checkTopLevelRoutes(model("ocx.sh", "tools/a", true), inputs)).not.toThrow();
  });

  for (const [ns, owner] of [
    ["index", "the catalog itself"],
    ["docs", "the docs mount"],
    ["assets", "the catalog itself"],
    ["robots.txt", "publicDir entry robots.txt"],
  ] as const) {
    it(`fails on a root namespace named ${ns}`, () => {
      expect(() => checkTopLevelRoutes(model("ocx.sh", `${ns}/a`, true), inputs)).toThrow(
        `route collision: /${ns} is claimed by ${owner} and by the root index ocx.sh`,
      );
    });
  }

  it("fails on an index label equal to a built-in name", () => {
    expect(() => checkTopLevelRoutes(model("docs", "a/b", false), inputs)).toThrow(
      "route collision: /docs is claimed by the docs mount and by the index docs",
    );
  });
});
