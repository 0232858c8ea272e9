import { silentLogger } from "@pkg/common";
import { type Descriptor, MediaType, memoryBlob, parseImageIndex, type Target } from "@pkg/oci";
import { PackageMediaType } from "../../src/media-types.js";
import { defaultMetadata } from "../../src/metadata/index.js";
import { parsePlatformKey } from "../../src/platform/index.js";
import { canonicalJson } from "../../src/push/manifest.js";
import { pushPackage } from "../../src/push/push.js";
import { type IndexEntry, publishTags } from "../../src/push/tags.js";

/** Pushes one small package manifest per platform of `version` (a layer of its own each), tagging nothing. */
export async function pushManifests(
  target: Target,
  version: string,
  platforms: string[],
): Promise<IndexEntry[]> {
  const entries: IndexEntry[] = [];
  for (const platform of platforms) {
    const layer = memoryBlob(Buffer.from(`layer of ${version} for ${platform}\n`));
    const pushed = await pushPackage({
      target,
      tag: `${version}_20250101000000`,
      platform: parsePlatformKey(platform),
      layers: [
        { arg: { path: `${version}-${platform}` }, mediaType: PackageMediaType.LayerZstd, source: layer },
      ],
      metadata: defaultMetadata(),
      cascade: false,
      annotations: {},
      log: silentLogger,
      writeTags: false,
    });
    entries.push(pushed.entry);
  }
  return entries;
}

/** Publishes `version` for `platforms` under primary tag `tag`, with or without the cascade, as a push does. */
export async function publish(
  target: Target,
  tag: string,
  platforms: string[],
  cascade: boolean,
): Promise<IndexEntry[]> {
  const version = tag.slice(0, tag.indexOf("_"));
  const entries = await pushManifests(target, version, platforms);
  await publishTags({
    target,
    tag,
    entries: entries.map((entry, i) => ({ platform: parsePlatformKey(platforms[i] ?? ""), entry })),
    cascade,
    annotations: {},
    log: silentLogger,
  });
  return entries;
}

/** The manifests a tag's index lists. */
export async function entriesOf(target: Target, tag: string): Promise<Descriptor[]> {
  const stored = await target.fetchManifest(tag);
  if (!stored) throw new Error(`no tag ${tag}`);
  return parseImageIndex(stored.bytes, tag).manifests;
}

/** Writes an index listing `entries` under each of `tags`, as a hand edit would. */
export async function writeIndex(target: Target, entries: Descriptor[], ...tags: string[]): Promise<void> {
  const bytes = canonicalJson({
    schemaVersion: 2,
    mediaType: MediaType.ImageIndex,
    artifactType: PackageMediaType.Artifact,
    manifests: entries,
  });
  for (const tag of tags) await target.pushManifest(bytes, MediaType.ImageIndex, tag);
}

/**
 * One repository damaged in each way the cascade check names: 1.0.0 and 1.1.0 published whole;
 * 1.2.0 completed later (arm64 under a later build, without the cascade); 1.3.0's run killed
 * between its primary and rolling tags; 1.1 moved back to 1.0.0 by hand; 1.0.0 given a platform
 * the version lacks; 1.0 listing amd64 twice; 2.0.0's tags written by hand without `2`.
 */
export async function damageRepository(target: Target): Promise<void> {
  const both = ["linux/amd64", "linux/arm64"];
  await publish(target, "1.0.0_20250101000000", both, true);
  const v110 = await publish(target, "1.1.0_20250201000000", both, true);
  await publish(target, "1.2.0_20250301000000", ["linux/amd64"], true);
  await publish(target, "1.2.0_20250302000000", ["linux/arm64"], false);
  await publish(target, "1.3.0_20250401000000", both, false);
  await writeIndex(target, await entriesOf(target, "1.0.0"), "1.1");
  const [darwin] = await pushManifests(target, "1.0.0", ["darwin/arm64"]);
  if (!darwin) throw new Error("no darwin manifest");
  await writeIndex(target, [...(await entriesOf(target, "1.0.0")), darwin], "1.0.0");
  const v100 = await entriesOf(target, "1.0");
  await writeIndex(target, [...v100, ...v110.slice(0, 1)], "1.0");
  await publish(target, "2.0.0_20250501000000", both, false);
  await writeIndex(target, await entriesOf(target, "2.0.0_20250501000000"), "2.0.0", "2.0");
}

/** The statuses `check` gives the damaged repository. */
export const DAMAGED_STATUSES = {
  "1": "stale",
  "1.0": "duplicate",
  "1.0.0": "orphan",
  "1.1": "stale",
  "1.1.0": "ok",
  "1.2": "stale",
  "1.2.0": "stale",
  "1.3": "missing",
  "1.3.0": "missing",
  "2": "missing",
  "2.0": "ok",
  "2.0.0": "ok",
  latest: "stale",
};
