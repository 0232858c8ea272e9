import { describe, expect, it } from "vitest";
import { announceBranch, type BranchState, commitBase, isLive, relationOf } from "./branch.js";

const state = (over: Partial<BranchState>): BranchState => ({
  mainHead: "m",
  branchHead: "b",
  relation: "ahead",
  openRequest: false,
  ...over,
});

describe("the announce branch", () => {
  it("is one per package", () => {
    expect(announceBranch("acme/tool")).toBe("indexbot-announce-acme-tool");
  });

  it("relation from ahead/behind counts", () => {
    expect([relationOf(0, 0), relationOf(2, 0), relationOf(0, 3), relationOf(1, 1)]).toEqual([
      "identical",
      "ahead",
      "behind",
      "diverged",
    ]);
  });

  it.each([
    [{ branchHead: undefined, relation: undefined }, false],
    [{ relation: "ahead" as const }, true],
    [{ relation: "diverged" as const, openRequest: true }, true],
    // squash-merged: diverged and no open request
    [{ relation: "diverged" as const, openRequest: false }, false],
    [{ relation: "behind" as const, openRequest: true }, false],
    [{ relation: "identical" as const }, false],
  ])("%j: live %s", (over, live) => {
    expect(isLive(state(over))).toBe(live);
  });

  it("appends to a live branch, else bases the commit on the default branch", () => {
    expect(commitBase(state({ relation: "ahead" }))).toEqual({ kind: "append", head: "b" });
    expect(commitBase(state({ relation: "diverged" }))).toEqual({
      kind: "reset",
      mainHead: "m",
      previous: "b",
      relation: "diverged",
    });
    expect(commitBase(state({ branchHead: undefined, relation: undefined }))).toEqual({
      kind: "reset",
      mainHead: "m",
      previous: undefined,
      relation: undefined,
    });
  });
});
