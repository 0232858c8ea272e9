import { describe, expect, it } from "vitest";
import type { IndexRecord } from "../plan/summary-document.js";
import { mergeSummary } from "./summary-merge.js";

const record = (c: string, ...platforms: string[]): IndexRecord => ({
  digest: `sha256:${c.repeat(64)}`,
  platforms,
});

describe("mergeSummary", () => {
  const current = new Map([
    ["1.0.0", record("a", "linux/amd64")],
    ["1.1.0", record("b", "linux/amd64")],
    ["1.2.0", record("c", "linux/amd64")],
    ["latest", record("c", "linux/amd64")],
  ]);

  it("keeps listed entries, takes what the run saw over them, drops deleted, non-index and non-record tags", () => {
    const seen = new Map<string, IndexRecord | null>([
      ["1.1.0", record("d", "linux/amd64", "linux/arm64")], // completed by this run
      ["1.2.0", null], // seen holding no index
      ["1.3.0", record("e", "linux/arm64")], // new
      ["1.3.0_20250101120000", record("e", "linux/arm64")],
      ["9.9.9", record("f", "linux/arm64")], // deleted again before the listing
    ]);
    const listed = new Set(["1.1.0", "1.2.0", "1.3.0", "1.3.0_20250101120000", "latest", "__pkg.published"]);
    expect(Object.fromEntries(mergeSummary(current, seen, listed))).toEqual({
      "1.1.0": record("d", "linux/amd64", "linux/arm64"),
      "1.3.0": record("e", "linux/arm64"),
      "1.3.0_20250101120000": record("e", "linux/arm64"),
    });
  });

  it("starts empty without a valid current summary", () => {
    const seen = new Map([["1.0.0", record("a", "linux/amd64")]]);
    expect([...mergeSummary(undefined, seen, new Set(["1.0.0", "1.1.0"]))]).toEqual([
      ["1.0.0", record("a", "linux/amd64")],
    ]);
  });
});
