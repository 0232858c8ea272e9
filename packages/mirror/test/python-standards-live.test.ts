// The live cross-check: generate.py run now with the pinned `packaging` (installed with pip into
// node_modules/.cache on first use) answers exactly the checked-in table, and our standards
// agree with that answer row by row.
import { describe, expect, it } from "vitest";
import { disagreements, liveTable, readTable } from "./support/python-standards.js";

describe("the packaging table is packaging's answer now", () => {
  it("generate.py reproduces the checked-in table and our standards agree with it", async () => {
    const live = await liveTable();
    expect(live).toEqual(await readTable());
    expect(disagreements(live)).toEqual([]);
  });
});
