import { parseImageIndex, type Target } from "@pkg/oci";
import { parsePlatformKey, platformKeyFromOci } from "@pkg/package";
import type { TagRequest } from "@pkg/package/push";

/** A manifest in the repository with the platform it was pushed for, as `publishTags` takes it. */
export type PlatformManifest = TagRequest["entries"][number];

export interface CarriedEntries {
  /** Per platform asked for (`asked`: as the caller spelt it), the manifest of the newest build holding it. */
  entries: Array<PlatformManifest & { asked: string }>;
  /** Platforms asked for that no tag of the version holds (deleted since the plan read them). */
  missing: string[];
}

/**
 * The manifests earlier runs published for some platforms of one version, read from the
 * version's own tags (`ownTags`, oldest first: its primary tags, the newest build winning), never
 * from exact or rolling tags, which may hold another version's manifest for a platform.
 */
export async function readCarriedEntries(
  target: Target,
  ownTags: readonly string[],
  platforms: readonly string[],
): Promise<CarriedEntries> {
  const byKey = new Map<string, PlatformManifest>();
  for (const tag of ownTags) {
    const stored = await target.fetchManifest(tag);
    const index = stored ? parseImageIndex(stored.bytes, `${target.displayName}:${tag}`) : undefined;
    for (const entry of index?.manifests ?? []) {
      const key = entry.platform ? platformKeyFromOci(entry.platform) : undefined;
      if (key && entry.platform)
        byKey.set(key.key, { platform: key, entry: { ...entry, platform: entry.platform } });
    }
  }
  const entries: CarriedEntries["entries"] = [];
  const missing: string[] = [];
  for (const platform of platforms) {
    const found = byKey.get(parsePlatformKey(platform).key);
    if (found) entries.push({ ...found, asked: platform });
    else missing.push(platform);
  }
  return { entries, missing };
}
