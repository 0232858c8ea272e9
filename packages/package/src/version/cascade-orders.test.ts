import { describe, expect, it } from "vitest";
import { parsePlatformKey } from "../platform/index.js";
import { foldCascade, planCascade, publicationOfTag } from "./cascade.js";
import { existingVersions, versionRecordTags } from "./existing.js";
import { parseVersion } from "./grammar.js";
import { type BuildTimestamp, primaryTag } from "./tags.js";

/** A repository as the cascade sees it: tag -> platform key -> the build its index entry is (its primary tag). */
type Repository = Map<string, Map<string, string>>;

interface Publication {
  version: string;
  variant?: string;
  platform: string;
  buildTimestamp: BuildTimestamp;
  at: string;
}

const A = "linux/amd64";
const B = "linux/arm64+libc.musl";

const publications: Publication[] = [
  { version: "2.0.0", platform: A, buildTimestamp: "datetime", at: "2025-01-01T10:00:00Z" },
  // 2.0.0 has no B build: B's rolling tags stay with 1.9.0
  { version: "1.9.0", platform: B, buildTimestamp: "datetime", at: "2025-01-02T11:00:00Z" },
  // a backfill of an older version for A: must never take 1, latest from 1.10.0 / 2.0.0
  { version: "1.9.0", platform: A, buildTimestamp: "datetime", at: "2025-01-02T11:00:00Z" },
  // a bare tag, no build suffix
  { version: "1.8.2", platform: A, buildTimestamp: "none", at: "2025-01-07T00:00:00Z" },
  // a pre-release: only its own exact tag
  { version: "2.1.0-rc1", platform: A, buildTimestamp: "datetime", at: "2025-01-04T09:30:00Z" },
  { version: "1.10.0", platform: A, buildTimestamp: "date", at: "2025-01-03T08:00:00Z" },
  // a variant: its own track, never the default's tags
  { version: "1.9.0", variant: "debug", platform: A, buildTimestamp: "datetime", at: "2025-01-05T00:00:00Z" },
  { version: "2.0.0", variant: "debug", platform: A, buildTimestamp: "datetime", at: "2025-01-06T00:00:00Z" },
];

/** The final state, written out by hand. */
const expected: Record<string, Record<string, string>> = {
  // primary tags: each build under its own tag
  "2.0.0_20250101100000": { [A]: "2.0.0_20250101100000" },
  "1.9.0_20250102110000": { [A]: "1.9.0_20250102110000", [B]: "1.9.0_20250102110000" },
  "2.1.0-rc1_20250104093000": { [A]: "2.1.0-rc1_20250104093000" },
  "1.10.0_20250103": { [A]: "1.10.0_20250103" },
  // exact tags (1.8.2 is also its primary tag)
  "2.0.0": { [A]: "2.0.0_20250101100000" },
  "1.9.0": { [A]: "1.9.0_20250102110000", [B]: "1.9.0_20250102110000" },
  "1.8.2": { [A]: "1.8.2" },
  "2.1.0-rc1": { [A]: "2.1.0-rc1_20250104093000" },
  "1.10.0": { [A]: "1.10.0_20250103" },
  // rolling tags: per platform the newest release of the series carrying it
  "2.0": { [A]: "2.0.0_20250101100000" },
  "2": { [A]: "2.0.0_20250101100000" },
  "1.10": { [A]: "1.10.0_20250103" },
  "1.9": { [A]: "1.9.0_20250102110000", [B]: "1.9.0_20250102110000" },
  "1.8": { [A]: "1.8.2" },
  "1": { [A]: "1.10.0_20250103", [B]: "1.9.0_20250102110000" },
  latest: { [A]: "2.0.0_20250101100000", [B]: "1.9.0_20250102110000" },
  // the debug variant
  "debug-1.9.0_20250105000000": { [A]: "debug-1.9.0_20250105000000" },
  "debug-2.0.0_20250106000000": { [A]: "debug-2.0.0_20250106000000" },
  "debug-1.9.0": { [A]: "debug-1.9.0_20250105000000" },
  "debug-1.9": { [A]: "debug-1.9.0_20250105000000" },
  "debug-1": { [A]: "debug-1.9.0_20250105000000" },
  "debug-2.0.0": { [A]: "debug-2.0.0_20250106000000" },
  "debug-2.0": { [A]: "debug-2.0.0_20250106000000" },
  "debug-2": { [A]: "debug-2.0.0_20250106000000" },
  debug: { [A]: "debug-2.0.0_20250106000000" },
};

/** One push, as the push command does it: read the tags, plan, merge each tag's platforms. */
function publish(repository: Repository, publication: Publication): void {
  const version = parseVersion(publication.version);
  const at = new Date(publication.at);
  const build = primaryTag(version, publication.buildTimestamp, at, publication.variant);
  const records = versionRecordTags(repository.keys(), publication.variant);
  const platformsByTag = new Map([...repository].map(([tag, entries]) => [tag, [...entries.keys()]]));
  const plan = planCascade({
    ...publicationOfTag(build),
    platforms: [parsePlatformKey(publication.platform)],
    existing: existingVersions(records, platformsByTag),
    cascade: true,
  });
  for (const write of plan) {
    const entries = repository.get(write.tag) ?? new Map<string, string>();
    repository.set(write.tag, entries);
    for (const platform of write.platforms) entries.set(platform, build);
  }
}

function snapshot(repository: Repository): Record<string, Record<string, string>> {
  return Object.fromEntries(
    [...repository]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([tag, entries]) => [tag, Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : 1)))]),
  );
}

function copy(repository: Repository): Repository {
  return new Map([...repository].map(([tag, entries]) => [tag, new Map(entries)]));
}

/**
 * Publishes every order of `remaining` after the repository's current state and calls `done`
 * with each final state. Orders sharing a prefix share its pushes, the same as pushing them one
 * order at a time, only cheaper.
 */
function everyOrder(
  repository: Repository,
  remaining: readonly Publication[],
  path: readonly Publication[],
  done: (order: readonly Publication[], final: Repository) => void,
): void {
  if (remaining.length === 0) {
    done(path, repository);
    return;
  }
  remaining.forEach((publication, i) => {
    const next = copy(repository);
    publish(next, publication);
    everyOrder(next, [...remaining.slice(0, i), ...remaining.slice(i + 1)], [...path, publication], done);
  });
}

/** Publishes every order of `list` into an empty repository; returns how many orders and up to 3 that went wrong. */
function checkEveryOrder(list: readonly Publication[], want: Record<string, Record<string, string>>) {
  const wantText = JSON.stringify(
    snapshot(new Map(Object.entries(want).map(([t, e]) => [t, new Map(Object.entries(e))]))),
  );
  const mismatches = new Map<string, string>();
  let orders = 0;
  everyOrder(new Map(), list, [], (order, repository) => {
    const text = JSON.stringify(snapshot(repository));
    if (text !== wantText && mismatches.size < 3) {
      mismatches.set(order.map((p) => `${p.variant ?? ""}${p.version}@${p.platform}`).join(" "), text);
    }
    orders++;
  });
  return { orders, mismatches: [...mismatches] };
}

describe("the cascade does not depend on publish order", () => {
  it("reaches the hand-written state from every one of the 8! orders", () => {
    expect(checkEveryOrder(publications, expected)).toEqual({ orders: 40320, mismatches: [] });
  });

  it("holds with bare tags only (build_timestamp: none), where versions are read from exact tags", () => {
    const bare = (version: string, platform: string): Publication => ({
      version,
      platform,
      buildTimestamp: "none",
      at: "2025-02-01T00:00:00Z",
    });
    const list = [bare("2.0.0", A), bare("1.9.0", A), bare("1.9.0", B), bare("1.9.1", A), bare("1.10.0", B)];
    const want = {
      "2.0.0": { [A]: "2.0.0" },
      "1.9.0": { [A]: "1.9.0", [B]: "1.9.0" },
      "1.9.1": { [A]: "1.9.1" },
      "1.10.0": { [B]: "1.10.0" },
      "2.0": { [A]: "2.0.0" },
      "2": { [A]: "2.0.0" },
      "1.9": { [A]: "1.9.1", [B]: "1.9.0" },
      "1.10": { [B]: "1.10.0" },
      "1": { [A]: "1.9.1", [B]: "1.10.0" },
      latest: { [A]: "2.0.0", [B]: "1.10.0" },
    };
    expect(checkEveryOrder(list, want)).toEqual({ orders: 120, mismatches: [] });
  });

  it("agrees with the fold over the versions the repository holds", () => {
    const repository: Repository = new Map();
    for (const publication of publications) publish(repository, publication);
    for (const variant of [undefined, "debug"]) {
      const records = versionRecordTags(repository.keys(), variant);
      const platformsByTag = new Map([...repository].map(([tag, entries]) => [tag, [...entries.keys()]]));
      const fold = foldCascade(existingVersions(records, platformsByTag), variant);
      for (const [tag, entries] of fold) {
        const held = repository.get(tag);
        for (const [platform, version] of entries) {
          // the repository holds builds; their version is what the fold names
          expect(
            held
              ?.get(platform)
              ?.replace(/^[a-z][a-z0-9.]*-(?=[0-9])/, "")
              .replace(/_[0-9]+$/, ""),
          ).toBe(version);
        }
        expect([...(held?.keys() ?? [])].sort()).toEqual([...entries.keys()].sort());
      }
    }
  });
});
