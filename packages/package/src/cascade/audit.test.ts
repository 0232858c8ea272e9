import { type Descriptor, MediaType, sha256Digest } from "@pkg/oci";
import { describe, expect, it } from "vitest";
import { PackageMediaType } from "../media-types.js";
import { parsePlatformKey, toOciPlatform } from "../platform/index.js";
import { type AuditedAlias, auditCascade, rebuiltIndex, type TagContent } from "./audit.js";
import { leafVersions, leafVersionTag } from "./leaves.js";

const A = "linux/amd64";
const B = "linux/arm64";
const C = "darwin/arm64";

/** The manifest a (version, platform) was published as: a digest of its own. */
const manifest = (
  version: string,
  platform: string,
): Descriptor & { platform: NonNullable<Descriptor["platform"]> } => ({
  mediaType: MediaType.ImageManifest,
  digest: sha256Digest(Buffer.from(`${version} ${platform}`)),
  size: 500,
  platform: toOciPlatform(parsePlatformKey(platform)),
});

function index(entries: Descriptor[], annotations?: Record<string, string>): TagContent {
  const doc = {
    schemaVersion: 2 as const,
    mediaType: MediaType.ImageIndex,
    artifactType: PackageMediaType.Artifact,
    manifests: entries,
    ...(annotations ? { annotations } : {}),
  };
  return { digest: sha256Digest(Buffer.from(JSON.stringify(doc))), index: doc };
}

const of = (version: string, ...platforms: string[]) => platforms.map((p) => manifest(version, p));

/** 1.0.0 and 1.1.0, both platforms, published in order with the cascade: every tag right. */
function healthy(): Map<string, TagContent> {
  return new Map([
    ["1.0.0_20250101000000", index(of("1.0.0", A, B))],
    ["1.1.0_20250201000000", index(of("1.1.0", A, B))],
    ["1.0.0", index(of("1.0.0", A, B))],
    ["1.0", index(of("1.0.0", A, B))],
    ["1.1.0", index(of("1.1.0", A, B))],
    ["1.1", index(of("1.1.0", A, B))],
    ["1", index(of("1.1.0", A, B))],
    ["latest", index(of("1.1.0", A, B))],
  ]);
}

const rows = (contents: Map<string, TagContent>) => auditCascade(contents).aliases.map((a) => a.row);
const statuses = (contents: Map<string, TagContent>) =>
  Object.fromEntries(rows(contents).map((r) => [r.tag, r.status]));
const rowOf = (contents: Map<string, TagContent>, tag: string) => rows(contents).find((r) => r.tag === tag);

describe("auditCascade", () => {
  it("a repository published in order is clean; leaf tags are never rows", () => {
    const audit = auditCascade(healthy());
    expect(audit.leaves).toBe(2);
    expect(statuses(healthy())).toEqual({
      "1": "ok",
      "1.0": "ok",
      "1.0.0": "ok",
      "1.1": "ok",
      "1.1.0": "ok",
      latest: "ok",
    });
  });

  it("an alias missing", () => {
    const repo = healthy();
    repo.delete("1.1");
    expect(rowOf(repo, "1.1")).toEqual({
      tag: "1.1",
      status: "missing",
      digest: null,
      platforms: [A, B].map((platform) => ({
        platform,
        state: "absent",
        expected: { version: "1.1.0", digest: manifest("1.1.0", platform).digest },
        held: [],
      })),
    });
  });

  it("an alias pointing at an older version is stale, naming the version it holds", () => {
    const repo = healthy();
    repo.set("latest", index(of("1.0.0", A, B)));
    const row = rowOf(repo, "latest");
    expect(row?.status).toBe("stale");
    expect(row?.platforms[0]).toEqual({
      platform: A,
      state: "wrong",
      expected: { version: "1.1.0", digest: manifest("1.1.0", A).digest },
      held: [{ digest: manifest("1.0.0", A).digest, version: "1.0.0" }],
    });
  });

  it("an alias holding a platform the version lacks is orphan; one listing a platform twice is duplicate", () => {
    const repo = healthy();
    repo.set("1.1.0", index([...of("1.1.0", A, B), manifest("0.9.0", C)]));
    repo.set("1", index([...of("1.1.0", A, B), manifest("1.0.0", A)]));
    expect(rowOf(repo, "1.1.0")?.status).toBe("orphan");
    expect(rowOf(repo, "1.1.0")?.platforms.find((p) => p.platform === C)).toEqual({
      platform: C,
      state: "orphan",
      held: [{ digest: manifest("0.9.0", C).digest }],
    });
    expect(rowOf(repo, "1.1.0")?.unrepairable).toBeUndefined();
    expect(rowOf(repo, "1")?.status).toBe("duplicate");
  });

  it("a version completed later (its second platform under a later build, no cascade) leaves its aliases stale", () => {
    const repo = healthy();
    for (const tag of ["1.2.0", "1.2", "1", "latest"])
      repo.set(tag, index([manifest("1.2.0", A), manifest("1.1.0", B)]));
    repo.set("1.2.0_20250301000000", index(of("1.2.0", A)));
    repo.set("1.2.0_20250302000000", index(of("1.2.0", B)));
    expect(statuses(repo)).toMatchObject({ "1.2.0": "stale", "1.2": "stale", "1": "stale", latest: "stale" });
    expect(rowOf(repo, "1.2")?.platforms.map((p) => [p.platform, p.state, p.held[0]?.version])).toEqual([
      [A, "ok", "1.2.0"],
      [B, "wrong", "1.1.0"],
    ]);
  });

  it("a run killed between the primary and the rolling tags: its exact and series tags missing, the others stale", () => {
    const repo = healthy();
    repo.set("1.3.0_20250401000000", index(of("1.3.0", A, B)));
    expect(statuses(repo)).toMatchObject({
      "1.3.0": "missing",
      "1.3": "missing",
      "1": "stale",
      latest: "stale",
      "1.1": "ok",
    });
  });

  it("a newer build of a version replaces its older build's manifest in the fold", () => {
    const repo = healthy();
    repo.set("1.1.0_20250202000000", index(of("1.1.0-rebuilt", A)));
    expect(rowOf(repo, "latest")?.platforms.map((p) => [p.platform, p.state])).toEqual([
      [A, "wrong"],
      [B, "ok"],
    ]);
  });

  it("unrepairable: a series without any version (would-empty-index), a tag holding a single manifest", () => {
    const repo = healthy();
    repo.set("2.0", index(of("2.0.0", A)));
    repo.set("0.9", { digest: sha256Digest(Buffer.from("single")) });
    expect(rowOf(repo, "2.0")).toMatchObject({
      status: "orphan",
      unrepairable: { reason: "would-empty-index" },
    });
    expect(rowOf(repo, "0.9")).toMatchObject({ status: "stale", unrepairable: { reason: "not-an-index" } });
  });

  it("pre-releases take their exact tag only; variants fold on their own", () => {
    const repo = healthy();
    repo.set("2.0.0-rc1_20250501000000", index(of("2.0.0-rc1", A)));
    repo.set("debug-1.0.0_20250101000000", index(of("debug-1.0.0", A)));
    for (const tag of ["debug-1.0.0", "debug-1.0", "debug-1", "debug"])
      repo.set(tag, index(of("debug-1.0.0", A)));
    repo.set("edge", index(of("1.0.0", A)));
    const all = statuses(repo);
    expect(all["2.0.0-rc1"]).toBe("missing");
    expect(all.latest).toBe("ok");
    expect(Object.entries(all).filter(([tag]) => tag.startsWith("debug"))).toEqual([
      ["debug", "ok"],
      ["debug-1", "ok"],
      ["debug-1.0", "ok"],
      ["debug-1.0.0", "ok"],
    ]);
    // the tags of a variant without versions are no rolling tags of ours
    expect(all.edge).toBeUndefined();
  });

  it("build_timestamp none: bare exact tags are the leaves; X.Y and X are aliases once a longer release extends them", () => {
    const none = new Map([
      ["1.0.0", index(of("1.0.0", A))],
      ["1.1.0", index(of("1.1.0", A))],
      ["1.0", index(of("1.0.0", A))],
      ["1.1", index(of("1.1.0", A))],
      ["1", index(of("1.0.0", A))],
      ["latest", index(of("1.1.0", A))],
    ]);
    expect(statuses(none)).toEqual({ "1": "stale", "1.0": "ok", "1.1": "ok", latest: "ok" });
    expect([...leafVersions(["2.1", "1.0.0"], undefined).keys()]).toEqual(["2.1", "1.0.0"]);
    // with build tags in the variant, a bare 2.1 is an alias (here: of nothing)
    expect([...leafVersions(["2.1", "1.0.0_20250101000000"], undefined).keys()]).toEqual(["1.0.0"]);
  });
});

describe("auditCascade with incomplete versions left out of the fold", () => {
  /** 1.0.0 whole and tagged; 1.1.0 partial (B failed), pushed under its primary tag only. */
  function partial(): Map<string, TagContent> {
    return new Map([
      ["1.0.0_20250101000000", index(of("1.0.0", A, B))],
      ["1.1.0_20250201000000", index(of("1.1.0", A))],
      ["1.0.0", index(of("1.0.0", A, B))],
      ["1.0", index(of("1.0.0", A, B))],
      ["1", index(of("1.0.0", A, B))],
      ["latest", index(of("1.0.0", A, B))],
    ]);
  }
  const incomplete = new Set(["1.1.0"]);
  const audited = (contents: Map<string, TagContent>, held = incomplete) =>
    Object.fromEntries(auditCascade(contents, { incomplete: held }).aliases.map((a) => [a.row.tag, a]));

  it("a partial version pushed without rolling tags is clean once held out (and owes them without)", () => {
    const without = statuses(partial());
    expect(without).toMatchObject({ "1.1.0": "missing", "1.1": "missing", "1": "stale", latest: "stale" });
    const audit = auditCascade(partial(), { incomplete });
    expect(audit.heldOut).toEqual(["1.1.0"]);
    expect(audit.leaves).toBe(2);
    expect(Object.fromEntries(audit.aliases.map((a) => [a.row.tag, a.row.status]))).toEqual({
      "1": "ok",
      "1.0": "ok",
      "1.0.0": "ok",
      latest: "ok",
    });
  });

  it("an alias holding a held-out version's platforms is stale, and rebuilt from the fold without them", () => {
    const repo = partial();
    repo.set("latest", index([manifest("1.1.0", A), manifest("1.0.0", B)]));
    const latest = audited(repo).latest;
    expect(latest?.row.status).toBe("stale");
    expect(
      latest?.row.platforms.map((p) => [p.platform, p.state, p.held[0]?.version, p.expected?.version]),
    ).toEqual([
      [A, "wrong", "1.1.0", "1.0.0"],
      [B, "ok", "1.0.0", "1.0.0"],
    ]);
    expect(rebuiltIndex(latest as AuditedAlias).manifests.map((m) => m.digest)).toEqual(
      of("1.0.0", A, B).map((m) => m.digest),
    );
  });

  it("a platform only a held-out version carries is orphan in an alias; a tag only it stands behind cannot be emptied", () => {
    const repo = partial();
    repo.set("1.1.0_20250201000000", index(of("1.1.0", A, C)));
    repo.set("1", index([...of("1.0.0", A, B), manifest("1.1.0", C)]));
    repo.set("1.1", index(of("1.1.0", A, C)));
    const rows = audited(repo);
    expect(rows["1"]?.row.platforms.find((p) => p.platform === C)?.state).toBe("orphan");
    expect(rebuiltIndex(rows["1"] as AuditedAlias).manifests.map((m) => m.digest)).toEqual(
      of("1.0.0", A, B).map((m) => m.digest),
    );
    expect(rows["1.1"]?.row).toMatchObject({
      status: "orphan",
      unrepairable: {
        reason: "would-empty-index",
        detail:
          "only 1.1.0, held out of the fold as incomplete, stands behind 1.1: delete the tag, or complete that version",
      },
    });
    // the held-out version's own build tag stays a leaf, never a row
    expect(rows["1.1.0_20250201000000"]).toBeUndefined();
  });

  it("names a variant's version by its prefixed exact tag; a named version the repository lacks is ignored", () => {
    const repo = partial();
    repo.set("debug-1.0.0_20250101000000", index(of("debug-1.0.0", A)));
    repo.set("debug-1.1.0_20250201000000", index(of("debug-1.1.0", A)));
    for (const tag of ["debug-1.0.0", "debug-1.0", "debug-1", "debug"])
      repo.set(tag, index(of("debug-1.0.0", A)));
    const audit = auditCascade(repo, { incomplete: new Set(["debug-1.1.0", "1.1.0", "9.9.9"]) });
    expect(audit.heldOut).toEqual(["1.1.0", "debug-1.1.0"]);
    expect(audit.aliases.filter((a) => a.row.status !== "ok")).toEqual([]);
    // held out in the default variant only, the variant's 1.1.0 still owes its tags
    const only = auditCascade(repo, { incomplete });
    expect(only.aliases.filter((a) => a.row.status !== "ok").map((a) => a.row.tag)).toEqual([
      "debug",
      "debug-1",
      "debug-1.1",
      "debug-1.1.0",
    ]);
  });
});

describe("leafVersionTag", () => {
  it("reads an exact or build tag, a variant's included; refuses text naming no version", () => {
    expect(leafVersionTag("1.1.0")).toBe("1.1.0");
    expect(leafVersionTag("1.1.0_20250201000000")).toBe("1.1.0");
    expect(leafVersionTag("edge-2.0.0-rc1_20250201000000")).toBe("edge-2.0.0-rc1");
    for (const text of ["latest", "edge", "sha256:abc", ""])
      expect(() => leafVersionTag(text), text).toThrow(expect.objectContaining({ exitCode: 64 }));
  });
});

describe("rebuiltIndex", () => {
  const alias = (contents: Map<string, TagContent>, tag: string): AuditedAlias => {
    const found = auditCascade(contents).aliases.find((a) => a.row.tag === tag);
    if (!found) throw new Error(`no ${tag}`);
    return found;
  };

  it("replaces every package platform with the fold's entry, keeps foreign entries and annotations", () => {
    const repo = healthy();
    const foreign: Descriptor = {
      mediaType: MediaType.ImageManifest,
      digest: sha256Digest(Buffer.from("x")),
      size: 9,
    };
    repo.set(
      "latest",
      index([manifest("1.0.0", B), foreign, manifest("0.9.0", C), manifest("1.0.0", A)], {
        "org.example": "kept",
      }),
    );
    const rebuilt = rebuiltIndex(alias(repo, "latest"));
    expect(rebuilt.annotations).toEqual({ "org.example": "kept" });
    expect(rebuilt.manifests.map((m) => m.digest)).toEqual([
      manifest("1.1.0", A).digest,
      manifest("1.1.0", B).digest,
      foreign.digest,
    ]);
    const again = new Map(repo);
    again.set("latest", index(rebuilt.manifests, rebuilt.annotations));
    expect(alias(again, "latest").row.status).toBe("ok");
  });

  it("a missing tag takes the annotations of its newest version's leaf index", () => {
    const repo = healthy();
    repo.set(
      "1.1.0_20250201000000",
      index(of("1.1.0", A, B), { "org.opencontainers.image.revision": "abc" }),
    );
    repo.delete("1.1");
    expect(rebuiltIndex(alias(repo, "1.1")).annotations).toEqual({
      "org.opencontainers.image.revision": "abc",
    });
  });
});
