import { join } from "node:path";
import type { TempDir } from "@pkg/testkit";
import { type ArchiveKind, buildAsset } from "./archive-kinds.js";
import { helloScript } from "./sample-upstream.js";
import { startUpstream, type UpstreamForge, type UpstreamRelease } from "./sync-run.js";

/** Platform -> the kind of its one archive. */
export type PlatformKinds = Readonly<Record<string, ArchiveKind>>;

const dashed = (platform: string) => platform.replace("/", "-");

/** `hello-<version>-<os>-<arch>.<kind>`. */
export const helloAssetName = (version: string, platform: string, kind: ArchiveKind) =>
  `hello-${version}-${dashed(platform)}.${kind}`;

/**
 * One release per version with an archive per platform, built in `scratch` with the real tools;
 * each holds the hello script at `hello/hello` (strip 1).
 */
export function helloReleases(
  scratch: string,
  versions: readonly string[],
  kinds: PlatformKinds,
): Promise<UpstreamRelease[]> {
  return Promise.all(
    versions.map(async (version) => {
      const assets = new Map<string, Buffer>();
      for (const [platform, kind] of Object.entries(kinds)) {
        const dir = join(scratch, version, dashed(platform));
        const bytes = await buildAsset(dir, kind, helloScript(version, platform), ["hello"]);
        assets.set(helloAssetName(version, platform, kind), bytes);
      }
      return { version, assets };
    }),
  );
}

/** The `assets` and `asset_type` spec keys that pick `helloReleases`' archives. */
export function helloAssetKeys(kinds: PlatformKinds) {
  return {
    assets: Object.fromEntries(
      Object.entries(kinds).map(([p, kind]) => [p, [`-${dashed(p)}\\.${kind.replaceAll(".", "\\.")}$`]]),
    ),
    asset_type: { type: "archive", strip_components: 1 },
  };
}

/** A `platforms` spec key: every platform on the ubuntu-24.04 runner. */
export const runnersFor = (platforms: readonly string[]) =>
  Object.fromEntries(platforms.map((p) => [p, { runner: "ubuntu-24.04" }]));

/** Every platform with the same kind. */
export const sameKind = (platforms: readonly string[], kind: ArchiveKind): PlatformKinds =>
  Object.fromEntries(platforms.map((p) => [p, kind]));

/** A `useSyncEnv` forge: `acme/hello` with `helloReleases` built in the workspace's `scratch`. */
export const helloForge =
  (versions: readonly string[], kinds: PlatformKinds) =>
  async (work: TempDir): Promise<UpstreamForge> =>
    startUpstream("acme/hello", await helloReleases(join(work.path, "scratch"), versions, kinds));
