import { describe, expect, it } from "vitest";
import { type PairCell, type PairRow, pairColumns } from "../../plan/pairs.js";
import { compileAssetSet } from "../../plan/resolve-assets.js";
import { incompleteVersions } from "./incomplete.js";

const gnu = compileAssetSet({ label: "gnu", assets: { "linux/amd64": ["amd64"], "linux/arm64": ["arm64"] } });
const musl = compileAssetSet({ variant: "musl", label: "musl", assets: { "linux/amd64": ["musl"] } });
const columns = pairColumns([gnu, musl]);

const row = (version: string, cells: Record<string, PairCell["state"]>): PairRow => ({
  version,
  prerelease: false,
  cells: Object.fromEntries(
    Object.entries(cells).map(([id, state]) => [
      id,
      state === "ambiguous" ? { state, candidates: ["a", "b"] } : ({ state } as PairCell),
    ]),
  ),
});

describe("incompleteVersions", () => {
  it("names each version with a missing, new or ambiguous cell by its variant's exact tag", () => {
    const rows = [
      row("1.4.0", { "linux/amd64": "published", "linux/arm64": "missing", "musl:linux/amd64": "published" }),
      row("1.3.0", { "linux/amd64": "untagged", "linux/arm64": "excluded", "musl:linux/amd64": "missing" }),
      row("1.2.0", { "linux/amd64": "new", "linux/arm64": "new" }),
      row("1.1.0", { "linux/amd64": "published", "linux/arm64": "absent", "musl:linux/amd64": "ambiguous" }),
      row("1.0.0", {
        "linux/amd64": "published",
        "linux/arm64": "published",
        "musl:linux/amd64": "untagged",
      }),
    ];
    expect([...incompleteVersions(rows, columns, new Set())].sort()).toEqual([
      "1.2.0",
      "1.4.0",
      "musl-1.1.0",
      "musl-1.3.0",
    ]);
  });

  it("leaves a version with its exact tag in the fold: a platform the spec added since does not make it partial", () => {
    const rows = [
      row("1.4.0", { "linux/amd64": "published", "linux/arm64": "missing" }),
      row("1.3.0", { "linux/amd64": "published", "linux/arm64": "missing" }),
    ];
    expect([...incompleteVersions(rows, columns, new Set(["1.4.0", "1.4", "1", "latest"]))]).toEqual([
      "1.3.0",
    ]);
  });

  it("a window of whole versions holds nothing out; a text outside the version grammar is skipped", () => {
    expect(incompleteVersions([row("1.0.0", { "linux/amd64": "published" })], columns, new Set()).size).toBe(
      0,
    );
    expect(incompleteVersions([row("nightly", { "linux/amd64": "missing" })], columns, new Set()).size).toBe(
      0,
    );
  });
});
