import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type BuildMemo, loadMemo, saveMemo } from "./memo.js";

const hex = (c: string) => c.repeat(64);
let dir: string | undefined;

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
    expect(loaded?.files).toEqual(files);
    expect(await loadMemo(file, "/site", "r2")).toBeUndefined();
    expect(await loadMemo(file, "/elsewhere", "r1")).toBeUndefined();
  });
});
