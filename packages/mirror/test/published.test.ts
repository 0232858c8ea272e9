import { type MemoryTarget, openMemory, readOnly } from "@pkg/oci";
import { beforeAll, describe, expect, it } from "vitest";
import { classifyPair, readIndexPlatforms, readPublished } from "../src/plan/published.js";
import { publishIndexes } from "./support/publish-indexes.js";

// reading published state needs a target, not a registry: the in-memory one
let target: MemoryTarget;

beforeAll(async () => {
  target = openMemory("acme/tool");
  await publishIndexes(target, [
    { tags: ["1.0.0", "1.0.0_20250101120000"], platforms: ["linux/amd64", "darwin/arm64"] },
    { tags: ["1.1.0", "1.1.0_20250201120000", "1.1", "1", "latest"], platforms: ["linux/amd64"] },
    // a version completed by a second run, pushed without the cascade: two primaries, no exact tag
    { tags: ["1.2.0_20250301120000"], platforms: ["linux/amd64"] },
    { tags: ["1.2.0_20250302120000"], platforms: ["darwin/arm64", "linux/amd64+libc.musl"] },
    { tags: ["musl-1.0.0"], platforms: ["linux/amd64+libc.musl"] },
  ]);
});

describe("readPublished", () => {
  it("lists once and reads only the indexes of asked versions that have tags", async () => {
    const state = await readPublished(readOnly(target), [
      { versions: ["1.0.0", "1.2.0", "2.0.0"] },
      { variant: "musl", versions: ["1.0.0", "1.1.0"] },
    ]);
    expect(state.sets.map((set) => Object.fromEntries([...set].map(([v, p]) => [v, [...p].sort()])))).toEqual(
      [
        {
          "1.0.0": ["darwin/arm64", "linux/amd64"],
          "1.2.0": ["darwin/arm64", "linux/amd64", "linux/amd64+libc.musl"],
        },
        { "1.0.0": ["linux/amd64+libc.musl"] },
      ],
    );
    // 1.0.0, the two primaries of 1.2.0, musl-1.0.0: not 1.1.0, its rolling tags or 2.0.0
    expect(state.indexReads).toBe(4);
    expect(state.tagCount).toBe(10);
  });

  it("classifies pairs as new, published or missing", async () => {
    const [set = new Map()] = (await readPublished(target, [{ versions: ["1.0.0", "1.1.0", "3.0.0"] }])).sets;
    expect(
      [
        ["1.0.0", "linux/amd64"],
        ["1.0.0", "linux/arm64"],
        ["1.1.0", "darwin/arm64"],
        ["3.0.0", "linux/amd64"],
      ].map(([version = "", platform = ""]) => classifyPair(set, version, platform)),
    ).toEqual(["published", "missing", "missing", "new"]);
  });

  it("treats an empty repository as nothing published", async () => {
    const empty = openMemory("acme/never-pushed");
    const state = await readPublished(empty, [{ versions: ["1.0.0"] }]);
    expect(state.sets[0]?.size).toBe(0);
    expect(state.indexReads).toBe(0);
  });

  it("reads a tag deleted since the listing as holding nothing", async () => {
    expect(await readIndexPlatforms(target, "9.9.9")).toEqual([]);
  });
});
