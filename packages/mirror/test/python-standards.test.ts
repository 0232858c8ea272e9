// The Python standards in src/python against what Python's `packaging` answers for the same
// rows (test/data/python/packaging-table.json, written by generate.py beside it).
import { describe, expect, it } from "vitest";
import { disagreements, readTable } from "./support/python-standards.js";

describe("the Python standards agree with packaging", () => {
  it("on every row of the checked-in table", async () => {
    const table = await readTable();
    expect(disagreements(table)).toEqual([]);
  });
});
