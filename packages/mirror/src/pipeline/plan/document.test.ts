import { openRegistry } from "@pkg/oci";
import { describe, expect, it } from "vitest";
import { planJobs } from "../../plan/jobs.js";
import { pairColumns, pairRows, planPairs } from "../../plan/pairs.js";
import type { RunnableSpec, RunPlan } from "../../plan/plan-run.js";
import type { PublishedVersions } from "../../plan/published.js";
import { type CompiledAssetSet, compileAssetSet } from "../../plan/resolve-assets.js";
import type { UpstreamVersion } from "../../sources/types.js";
import { buildPlanDocument } from "./document.js";
import { driftCandidates } from "./drift-scan.js";
import { formatPlan } from "./format.js";

const spec: RunnableSpec = {
  name: "tool",
  target: { registry: "registry.example", repository: "acme/tool" },
  source: { type: "forgeone_release", owner: "acme", repo: "tool", tag_pattern: "^v(?P<version>.+)$" },
  platforms: {
    "linux/amd64": { runner: ["ubuntu-24.04"], shell: "bash", prefix: [], exclude: [] },
    "linux/arm64": {
      runner: ["ubuntu-24.04-arm"],
      shell: "bash",
      prefix: [],
      exclude: [{ version: "1.3.0", reason: "crashes at start", severity: "broken" }],
    },
  },
};
const set = compileAssetSet({
  label: "default",
  assets: { "linux/amd64": ["amd64"], "linux/arm64": ["arm64"] },
});
const now = new Date("2025-01-02T03:04:05Z");
const both = ["linux/amd64", "linux/arm64"];

function version(text: string): UpstreamVersion {
  return {
    version: text,
    prerelease: false,
    assets: ["t-amd64", "t-arm64"].map((name) => ({ name, url: `https://x/${text}/${name}` })),
  };
}

/**
 * 1.0.0 published whole; 1.1.0 published whole but owing its tags; 1.2.0 published for amd64;
 * 1.3.0 new with arm64 excluded; 1.4.0 new. Newest first, as planRun gives them.
 */
function run(extra: Partial<RunnableSpec> = {}): RunPlan {
  const columns = pairColumns([set]);
  const full: RunnableSpec = { ...spec, ...extra };
  const plan = planPairs(["1.4.0", "1.3.0", "1.2.0", "1.1.0", "1.0.0"].map(version), columns, full.platforms);
  const published = new Map<CompiledAssetSet, PublishedVersions>([
    [
      set,
      new Map([
        ["1.0.0", new Set(both)],
        ["1.1.0", new Set(both)],
        ["1.2.0", new Set(["linux/amd64"])],
      ]),
    ],
  ]);
  const untagged = new Map<CompiledAssetSet, ReadonlySet<string>>([[set, new Set(["1.1.0"])]]);
  const { rows, ambiguities } = pairRows(plan, columns, published, untagged);
  return {
    spec: full,
    target: openRegistry({ host: "registry.example", repository: "acme/tool" }, { env: {} }),
    bounds: { min: "1.0.0", min_inclusive: true, max_inclusive: false },
    upstreamCount: 5,
    columns,
    plan,
    published,
    publishedReads: { tagCount: 3, summary: "used", summaryHits: 3, indexReads: 0 },
    untagged,
    ownTags: new Map([
      [
        set,
        new Map([
          ["1.0.0", ["1.0.0_20240101000000"]],
          ["1.1.0", ["1.1.0_20240201000000"]],
          ["1.2.0", ["1.2.0_20240301000000"]],
        ]),
      ],
    ]),
    rows,
    ambiguities,
  };
}

describe("buildPlanDocument", () => {
  it("makes entries of the versions with pairs (new, backfill), keeps owing versions out, and lists them apart", () => {
    const planned = run();
    const { document, owesTags, later } = buildPlanDocument(planned, planJobs(planned, now), []);
    expect(document.versions.map((v) => [v.version, v.kind, v.platforms, v.carried, v.excluded])).toEqual([
      ["1.2.0_20250102030405", "backfill", ["linux/arm64"], ["linux/amd64"], undefined],
      [
        "1.3.0_20250102030405",
        "new",
        ["linux/amd64"],
        undefined,
        [{ platform: "linux/arm64", reason: "crashes at start" }],
      ],
      ["1.4.0_20250102030405", "new", both, undefined, undefined],
    ]);
    expect(document.versions[0]?.own_tags).toEqual(["1.2.0_20240301000000"]);
    expect(document.versions[2]?.assets).toEqual([
      { platform: "linux/amd64", asset_name: "t-amd64", url: "https://x/1.4.0/t-amd64" },
      { platform: "linux/arm64", asset_name: "t-arm64", url: "https://x/1.4.0/t-arm64" },
    ]);
    expect(owesTags).toEqual(["1.1.0_20240201000000"]);
    expect(later).toEqual([]);
    expect(document).toMatchObject({ has_new: true, has_drift: false, schema_version: 1 });
    expect(Object.keys(document.legs)).toEqual(both);
    // optional keys are omitted, never null or undefined
    expect(JSON.parse(JSON.stringify(document))).toStrictEqual(document);
  });

  it("scans for drift only the published versions the run leaves alone, and a drift entry never doubles a scheduled one", () => {
    const planned = run();
    const jobs = planJobs(planned, now);
    expect(driftCandidates(planned, jobs).map((c) => [c.version, c.platforms, c.tags])).toEqual([
      ["1.0.0", both, ["1.0.0_20240101000000"]],
      ["1.1.0", both, ["1.1.0_20240201000000"]],
    ]);
    const drift = ["1.0.0", "1.2.0"].map((v) => ({
      version: v,
      tag: `${v}_20240101000000`,
      platforms: [{ platform: "linux/amd64", fields: ["env"] }],
    }));
    const { document } = buildPlanDocument(planned, jobs, drift);
    expect(document.versions.map((v) => [v.source_version, v.kind])).toEqual([
      ["1.0.0", "metadata-drift"],
      ["1.2.0", "backfill"],
      ["1.3.0", "new"],
      ["1.4.0", "new"],
    ]);
    expect(document.versions[0]).toStrictEqual({
      version: "1.0.0_20240101000000",
      source_version: "1.0.0",
      kind: "metadata-drift",
      platforms: [],
      assets: [],
      drift: [{ platform: "linux/amd64", fields: ["env"] }],
    });
    expect(document.has_drift).toBe(true);
  });

  it("env sources never have drift candidates", () => {
    const planned = run({ source: { type: "pypi" } as RunnableSpec["source"] });
    expect(driftCandidates(planned, planJobs(planned, now))).toEqual([]);
  });

  it("versions new_per_run leaves out are listed for later runs", () => {
    const planned = run({ versions: { new_per_run: 1, backfill: "newest_first" } });
    const { document, later } = buildPlanDocument(planned, planJobs(planned, now), []);
    expect(document.versions.map((v) => v.source_version)).toEqual(["1.4.0"]);
    expect(later).toEqual(["1.2.0", "1.3.0"]);
  });
});

describe("formatPlan", () => {
  it("prints the table, excludes, owed tags, later versions and the drift line", () => {
    const planned = run({
      versions: { new_per_run: 2, backfill: "newest_first" },
      pkg_mirror: { rev: "a".repeat(40) },
    });
    const drift = [
      {
        version: "1.0.0",
        tag: "1.0.0_20240101000000",
        platforms: [{ platform: "linux/arm64", fields: ["env", "binaries"] }],
      },
    ];
    expect(formatPlan(buildPlanDocument(planned, planJobs(planned, now), drift)).split("\n")).toEqual([
      "target: registry.example/acme/tool",
      `pkg_mirror_rev: ${"a".repeat(40)}`,
      "resolved min 1.0.0 (inclusive)",
      "resolved max unbounded",
      "version               kind            platforms",
      "1.0.0_20240101000000  metadata-drift  linux/arm64 (env, binaries)",
      "1.3.0_20250102030405  new             linux/amd64",
      "1.4.0_20250102030405  new             linux/amd64, linux/arm64",
      "excluded: 1.3.0_20250102030405 linux/arm64: crashes at start",
      "owes tags: 1.1.0_20240201000000: run pkg-mirror package pipeline cascade",
      "left for later runs (versions.new_per_run): 1.2.0",
      "1 published version carries metadata the spec has since changed: correct it with pkg-mirror package pipeline patch",
    ]);
  });

  it("says nothing is to do when nothing is", () => {
    const planned = run();
    const { document } = buildPlanDocument(planned, planJobs(planned, now), []);
    expect(
      formatPlan({ document: { ...document, versions: [], has_new: false }, owesTags: [], later: [] }),
    ).toBe(
      [
        "target: registry.example/acme/tool",
        "resolved min 1.0.0 (inclusive)",
        "resolved max unbounded",
        "nothing to do: target is up to date",
      ].join("\n"),
    );
  });
});
