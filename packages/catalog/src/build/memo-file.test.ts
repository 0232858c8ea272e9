import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type PackageView, summaryKeys } from "../site/model/types.js";
import { type BuildMemo, dropFiles, type MemoPackage, outputsOf } from "./memo.js";
import { intactOutputs, loadMemo, saveMemo } from "./memo-file.js";

const hex = (c: string) => c.repeat(64);

/** A package's whole view, every optional field set. */
function viewOf(path: string): PackageView {
  return {
    name: `main/${path}`,
    path,
    indexLabel: "main",
    route: `/${path}/`,
    title: "tool",
    description: "A tool — fast, ✓ für alle.",
    keywords: ["cli"],
    status: "deprecated",
    deprecatedMessage: "Use another.",
    supersededBy: "main/acme/next",
    repository: `oci://registry.test/${path}`,
    latest: "1.0.0",
    latestObserved: "2026-01-01T00:00:00Z",
    tags: [
      {
        tag: "1.0.0",
        aliases: ["1"],
        content: `sha256:${hex("7")}`,
        observed: "2026-01-01T00:00:00Z",
        yanked: false,
      },
    ],
    platforms: [{ os: "linux", arch: "amd64", libc: "glibc" }],
    matrix: {
      arches: ["amd64"],
      rows: [{ os: "linux", libc: "glibc", label: "linux (glibc)", arches: [true] }],
    },
    oses: ["linux"],
    owners: [{ login: "acme", href: "https://github.com/acme" }],
    license: { text: "MIT" },
    source: { text: "https://github.com/acme/tool", href: "https://github.com/acme/tool" },
    revision: { text: "abc" },
    upstreamUrl: "https://github.com/acme/tool",
    disclaimer: "Mirrored.",
    logoHref: "/p/acme/tool/o/sha256/logo.svg",
  };
}
let dir: string | undefined;

/** The files of a memo as plain keys and identities (a loaded entry reads them when asked). */
function plainFiles(files: BuildMemo["files"] | undefined) {
  return new Map([...(files ?? [])].map(([path, { key, ident }]) => [path, { key, ident }]));
}

/** The one base file of the memo file `<stem>.json` in `dir`. */
async function baseOf(dir: string, stem: string): Promise<string> {
  const bases = (await readdir(dir)).filter((name) => name.startsWith(`${stem}.base-`));
  expect(bases).toHaveLength(1);
  return bases[0] as string;
}

/** A package of `key` with its objects (named by `hex` of each), viewed under the root index or not. */
function memoPackage(key: string, objects: string[], root = false): MemoPackage {
  return {
    digest: `sha256:${hex("0")}`,
    label: "main",
    context: JSON.stringify({ root, ownerTemplate: "" }),
    summary: viewOf(key),
    view: () => viewOf(key),
    viewHash: hex("1"),
    files: [
      [`p/${key}.json`, hex("0")],
      ...objects.map((o): [string, string] => [`p/${key}/o/sha256/${hex(o)}.json`, `sha256:${hex(o)}`]),
    ],
  };
}

/** memoPackage, its site files (one per index file) added to `files`. */
function packageWithFiles(
  key: string,
  objects: string[],
  files: BuildMemo["files"],
  ino: { next: number },
): MemoPackage {
  const pkg = memoPackage(key, objects);
  for (const [path, fileKey] of outputsOf(pkg, false))
    files.set(path, { key: fileKey, ident: [++ino.next, 1, 1] });
  return pkg;
}

afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the build memo file", () => {
  it("keeps every file's key through a save and a load, the keys its paths imply left out", async () => {
    dir = await mkdtemp(join(tmpdir(), "catalog-memo-"));
    const file = join(dir, "memo.json");
    const files: BuildMemo["files"] = new Map([
      // content-addressed: the key is the name
      [`index/main/p/tool/o/sha256/${hex("a")}.json`, { key: `sha256:${hex("a")}`, ident: [1, 10, 1000] }],
      [`p/tool/o/sha256/${hex("b")}.md`, { key: `sha256:${hex("b")}`, ident: [2, 20, 2000] }],
      // named like an object, but with another key (the name does not imply it)
      [`p/tool/o/sha256/${hex("c")}.md`, { key: `sha256:${hex("d")}`, ident: [3, 30, 3000] }],
      // an object name outside an o/sha256 directory, and one without the dot
      [`p/tool/x/${hex("e")}.md`, { key: `sha256:${hex("e")}`, ident: [4, 40, 4000] }],
      [`p/tool/o/sha256/${hex("f")}`, { key: `sha256:${hex("f")}`, ident: [5, 50, 5000] }],
      ["acme/tool/index.html", { key: hex("9"), ident: [6, 60, 6000.5] }],
    ]);
    await saveMemo(file, { out: "/site", renderer: "r1", files, sources: new Map() });
    const loaded = await loadMemo(file, "/site", "r1");
    expect(plainFiles(loaded?.files)).toEqual(plainFiles(files));
    expect(await loadMemo(file, "/site", "r2")).toBeUndefined();
    expect(await loadMemo(file, "/elsewhere", "r1")).toBeUndefined();
  });

  it("links each saved package to its files' entries, until one of them is dropped as changed", async () => {
    dir = await mkdtemp(join(tmpdir(), "catalog-memo-"));
    const file = join(dir, "memo.json");
    const rooted = memoPackage("acme/tool", ["a", "b"], true);
    const plain = memoPackage("acme/other", ["c"]);
    const missing = memoPackage("acme/gone", ["d"]);
    const files: BuildMemo["files"] = new Map([["index.html", { key: hex("9"), ident: [9, 9, 9] }]]);
    let ino = 0;
    for (const [memo, root] of [
      [rooted, true],
      [plain, false],
      [missing, false],
    ] as const)
      for (const [path, key] of outputsOf(memo, root)) files.set(path, { key, ident: [++ino, 1, 1] });
    // one file of a package is not in the output: the package is not saved (the next build reads it)
    files.delete(`index/main/p/acme/gone/o/sha256/${hex("d")}.json`);
    const sources = new Map([
      [
        0,
        new Map([
          ["acme/tool", rooted],
          ["acme/other", plain],
          ["acme/gone", missing],
        ]),
      ],
    ]);
    await saveMemo(file, { out: "/site", renderer: "r1", files, sources });

    const loaded = await loadMemo(file, "/site", "r1");
    expect(plainFiles(loaded?.files)).toEqual(plainFiles(files));
    const packages = loaded?.sources.get(0);
    expect([...(packages?.keys() ?? [])]).toEqual(["acme/tool", "acme/other"]);
    const tool = packages?.get("acme/tool") as MemoPackage;
    const other = packages?.get("acme/other") as MemoPackage;
    const loadedFiles = loaded?.files as BuildMemo["files"];
    // the entries of the loaded map itself, in outputsOf's order; none under another root flag
    expect(intactOutputs(loadedFiles, tool, true)).toEqual(
      outputsOf(tool, true).map(([p]) => loadedFiles.get(p)),
    );
    expect(intactOutputs(loadedFiles, tool, true)?.[0]).toBe(loadedFiles.get(`index/main/p/acme/tool.json`));
    expect(intactOutputs(loadedFiles, tool, false)).toBeUndefined();
    expect(intactOutputs(new Map(loadedFiles), tool, true)).toBeUndefined();
    expect(intactOutputs(loadedFiles, other, false)).toHaveLength(2);

    // the summary alone is parsed; the whole view comes back as it was when asked
    expect(Object.keys(tool.summary).sort()).toEqual([...summaryKeys].sort());
    expect(tool.view()).toEqual(viewOf("acme/tool"));
    expect(tool.view()).toBe(tool.view());

    // saved again as loaded (from its columns), it loads the same
    const again = join(dir, "again.json");
    await saveMemo(again, loaded as BuildMemo);
    const reloaded = await loadMemo(again, "/site", "r1");
    expect(plainFiles(reloaded?.files)).toEqual(plainFiles(files));
    const tool2 = reloaded?.sources.get(0)?.get("acme/tool") as MemoPackage;
    expect(tool2.view()).toEqual(viewOf("acme/tool"));
    expect(intactOutputs(reloaded?.files as BuildMemo["files"], tool2, true)).toHaveLength(6);

    // a package line that is not of this format makes the memo unusable (the build starts anew)
    const againBase = join(dir, await baseOf(dir, "again"));
    const bytes = await readFile(againBase);
    await writeFile(againBase, Buffer.from(bytes.toString("latin1").replace(/\t(?=\[0,)/, " "), "latin1"));
    expect(await loadMemo(again, "/site", "r1")).toBeUndefined();

    dropFiles(loaded as BuildMemo, [`p/acme/tool/o/sha256/${hex("b")}.json`]);
    expect(intactOutputs(loadedFiles, tool, true)).toBeUndefined();
    expect(intactOutputs(loadedFiles, other, false)).toHaveLength(2);
  });

  it("records only what changed since its base, until that grows large; then writes a new base", async () => {
    dir = await mkdtemp(join(tmpdir(), "catalog-memo-"));
    const file = join(dir, "memo.json");
    const ino = { next: 0 };
    const files: BuildMemo["files"] = new Map([["index.html", { key: hex("9"), ident: [9, 9, 9] }]]);
    const packages = new Map<string, MemoPackage>();
    for (const name of ["a", "b", "c"])
      packages.set(`acme/${name}`, packageWithFiles(`acme/${name}`, [name], files, ino));
    await saveMemo(file, { out: "/site", renderer: "r1", files, sources: new Map([[0, packages]]) });
    const baseName = await baseOf(dir, "memo");
    const baseStat = await stat(join(dir, baseName));

    // a build onto it: one package changed, one gone, one added, a page rewritten, a file gone
    const loaded = (await loadMemo(file, "/site", "r1")) as BuildMemo;
    const sources = loaded.sources.get(0) as Map<string, MemoPackage>;
    const expected = new Map(files);
    const changedFiles: BuildMemo["files"] = new Map();
    sources.set("acme/a", packageWithFiles("acme/a", ["d"], changedFiles, ino));
    sources.delete("acme/b");
    sources.set("acme/new", packageWithFiles("acme/new", ["e"], changedFiles, ino));
    for (const path of [
      `index/main/p/acme/a/o/sha256/${hex("a")}.json`,
      `index/main/p/acme/b.json`,
      `index/main/p/acme/b/o/sha256/${hex("b")}.json`,
    ]) {
      loaded.files.delete(path);
      expected.delete(path);
    }
    for (const [path, entry] of changedFiles) {
      loaded.files.set(path, entry);
      expected.set(path, entry);
    }
    loaded.files.set("index.html", { key: hex("8"), ident: [99, 9, 9] });
    expected.set("index.html", { key: hex("8"), ident: [99, 9, 9] });
    await saveMemo(file, loaded);

    // the base file is as it was; the memo file holds the changes
    expect(await baseOf(dir, "memo")).toBe(baseName);
    const after = await stat(join(dir, baseName));
    expect([after.ino, after.mtimeMs]).toEqual([baseStat.ino, baseStat.mtimeMs]);
    expect((await readFile(file, "utf8")).includes(`acme/c`)).toBe(false);
    const reloaded = (await loadMemo(file, "/site", "r1")) as BuildMemo;
    expect(plainFiles(reloaded.files)).toEqual(plainFiles(expected));
    const reloadedPackages = reloaded.sources.get(0) as Map<string, MemoPackage>;
    expect([...reloadedPackages.keys()].sort()).toEqual(["acme/a", "acme/c", "acme/new"]);
    expect(reloadedPackages.get("acme/a")?.files).toEqual([
      ["p/acme/a.json", hex("0")],
      [`p/acme/a/o/sha256/${hex("d")}.json`, `sha256:${hex("d")}`],
    ]);
    // each package linked to its entries: the base's kept, the changed one's from the memo file
    for (const key of ["acme/a", "acme/c", "acme/new"]) {
      const pkg = reloadedPackages.get(key) as MemoPackage;
      expect(intactOutputs(reloaded.files, pkg, false)).toEqual(
        outputsOf(pkg, false).map(([p]) => reloaded.files.get(p)),
      );
    }

    // saved again with nothing changed, and again after one more change: still against that base
    await saveMemo(file, reloaded);
    const third = (await loadMemo(file, "/site", "r1")) as BuildMemo;
    expect(plainFiles(third.files)).toEqual(plainFiles(expected));
    expect([...(third.sources.get(0)?.keys() ?? [])].sort()).toEqual(["acme/a", "acme/c", "acme/new"]);
    (third.sources.get(0) as Map<string, MemoPackage>).delete("acme/new");
    await saveMemo(file, third);
    expect(await baseOf(dir, "memo")).toBe(baseName);
    expect([...((await loadMemo(file, "/site", "r1"))?.sources.get(0)?.keys() ?? [])].sort()).toEqual([
      "acme/a",
      "acme/c",
    ]);

    // a file replaced is recorded as its new entry, not also as removed
    const replacing = (await loadMemo(file, "/site", "r1")) as BuildMemo;
    replacing.files.set("index.html", { key: hex("6"), ident: [98, 9, 9] });
    await saveMemo(file, replacing);
    // (its path a line of the paths section, and of the removed paths were it listed there too)
    expect((await readFile(file, "utf8")).match(/^index\.html$/gm)).toHaveLength(1);
    expect((await loadMemo(file, "/site", "r1"))?.files.get("index.html")?.key).toBe(hex("6"));

    // changes past what a memo file holds: the memo is written anew, the old base goes
    const big = (await loadMemo(file, "/site", "r1")) as BuildMemo;
    for (let i = 0; i < 1001; i++)
      big.files.set(`extra/${i}.html`, { key: hex("7"), ident: [1000 + i, 1, 1] });
    await saveMemo(file, big);
    const newBase = await baseOf(dir, "memo");
    expect(newBase).not.toBe(baseName);
    expect((await loadMemo(file, "/site", "r1"))?.files.size).toBe(big.files.size);

    // without its base, a memo file is no memo
    await rm(join(dir, newBase));
    expect(await loadMemo(file, "/site", "r1")).toBeUndefined();
  });
});
