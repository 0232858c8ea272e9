import { ExitCode } from "@pkg/common";
import { openRegistry } from "@pkg/oci";
import { describe, expect, it } from "vitest";
import type { UpstreamVersion } from "../sources/types.js";
import type { MirrorSpec } from "../spec/mirror-spec.js";
import { planJobs } from "./jobs.js";
import { pairColumns, pairRows, planPairs } from "./pairs.js";
import type { RunnableSpec, RunPlan } from "./plan-run.js";
import type { PublishedVersions } from "./published.js";
import { type CompiledAssetSet, compileAssetSet } from "./resolve-assets.js";

const spec: RunnableSpec = {
  name: "tool",
  target: { registry: "registry.example", repository: "acme/tool" },
  source: { type: "forgeone_release", owner: "acme", repo: "tool", tag_pattern: "^v(?P<version>.+)$" },
  pkg_mirror: { rev: "0123456789abcdef0123456789abcdef01234567" },
};
const gnu = compileAssetSet({
  label: "default",
  assets: { "linux/amd64": ["amd64"], "linux/arm64": ["arm64"] },
});
const musl = compileAssetSet({
  variant: "musl",
  label: "musl",
  assets: { "linux/amd64+libc.musl": ["musl"] },
});
const now = new Date("2025-01-02T03:04:05Z");

function version(text: string, ...names: string[]): UpstreamVersion {
  return {
    version: text,
    prerelease: false,
    assets: names.map((name) => ({ name, url: `https://x/${name}` })),
  };
}

/** The plan of `versions` (newest first) against what the default set has published and owes. */
function runOf(
  versions: UpstreamVersion[],
  state: { published?: PublishedVersions; untagged?: Set<string>; ownTags?: Map<string, string[]> } = {},
  extra: Partial<MirrorSpec> = {},
): RunPlan {
  const columns = pairColumns([gnu, musl]);
  const plan = planPairs(versions, columns, undefined);
  const published = new Map<CompiledAssetSet, PublishedVersions>([[gnu, state.published ?? new Map()]]);
  const untagged = new Map<CompiledAssetSet, ReadonlySet<string>>([[gnu, state.untagged ?? new Set()]]);
  const { rows, ambiguities } = pairRows(plan, columns, published, untagged);
  return {
    spec: { ...spec, ...extra },
    target: openRegistry({ host: "registry.example", repository: "acme/tool" }, { env: {} }),
    bounds: { min: "1.0.0", min_inclusive: true, max_inclusive: false },
    upstreamCount: versions.length,
    columns,
    plan,
    published,
    publishedReads: { tagCount: 3, summary: "unneeded", summaryHits: 0, indexReads: 2 },
    untagged,
    ownTags: new Map([[gnu, state.ownTags ?? new Map()]]),
    rows,
    ambiguities,
  };
}

const both = new Set(["linux/amd64", "linux/arm64"]);
const run = runOf(
  [
    version("1.2.0", "t-amd64", "t-arm64", "t-musl"),
    version("1.1.0", "t-amd64", "t-arm64", "t-musl"),
    version("1.0.0", "t-amd64", "t-arm64"),
  ],
  {
    published: new Map([
      ["1.1.0", both],
      ["1.0.0", both],
    ]),
    untagged: new Set(["1.1.0"]),
    ownTags: new Map([
      ["1.1.0", ["1.1.0_20231201000000", "1.1.0_20240101000000"]],
      ["1.0.0", ["1.0.0_20231201000000"]],
    ]),
  },
);

describe("planJobs", () => {
  it("gives each version with work its primary tag: this run's build, or the newest an owing version has", () => {
    const jobs = planJobs(run, now);
    expect(jobs.versions.map((v) => [v.variant ?? "", v.version, v.primary_tag])).toEqual([
      ["", "1.0.0", undefined],
      ["musl", "1.0.0", undefined],
      ["", "1.1.0", "1.1.0_20240101000000"],
      ["musl", "1.1.0", "musl-1.1.0_20250102030405"],
      ["", "1.2.0", "1.2.0_20250102030405"],
      ["musl", "1.2.0", "musl-1.2.0_20250102030405"],
    ]);
    const dated = planJobs({ ...run, spec: { ...run.spec, build_timestamp: "date" } }, now);
    expect(dated.versions.at(-1)?.primary_tag).toBe("musl-1.2.0_20250102");
  });

  it("is plain data: the pairs to build with their assets, and what each version carries, skips and owes", () => {
    const jobs = planJobs(run, now);
    expect(jobs).toMatchObject({
      name: "tool",
      target: "registry.example/acme/tool",
      versions_resolved: { min: "1.0.0", min_inclusive: true, max_inclusive: false },
      pkg_mirror_rev: "0123456789abcdef0123456789abcdef01234567",
    });
    const [old, oldMusl, owing] = jobs.versions;
    expect(old).toStrictEqual({
      version: "1.0.0",
      prerelease: false,
      pairs: [],
      refused: [],
      skipped: [
        { platform: "linux/amd64", column: "linux/amd64", reason: "published" },
        { platform: "linux/arm64", column: "linux/arm64", reason: "published" },
      ],
      carried: ["linux/amd64", "linux/arm64"],
      retag: false,
    });
    expect(oldMusl?.skipped).toEqual([
      {
        platform: "linux/amd64+libc.musl",
        column: "musl:linux/amd64+libc.musl",
        reason: "no upstream asset",
      },
    ]);
    expect(owing).toMatchObject({
      pairs: [],
      carried: ["linux/amd64", "linux/arm64"],
      retag: true,
      own_tags: ["1.1.0_20231201000000", "1.1.0_20240101000000"],
    });
    expect(jobs.versions.at(-1)?.pairs).toStrictEqual([
      {
        version: "1.2.0",
        platform: "linux/amd64+libc.musl",
        variant: "musl",
        column: "musl:linux/amd64+libc.musl",
        asset: { name: "t-musl", url: "https://x/t-musl" },
      },
    ]);
    expect(JSON.parse(JSON.stringify(jobs))).toStrictEqual(jobs);
  });

  it("refuses a version that already carries a build suffix before anything is built (exit 65)", () => {
    const suffixed = runOf([version("1.2.3_20250101", "t-amd64")]);
    expect(() => planJobs(suffixed, now)).toThrow(
      expect.objectContaining({
        exitCode: ExitCode.Data,
        message: expect.stringContaining("already carries a build suffix"),
      }),
    );
  });
});
