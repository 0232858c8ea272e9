import { describeError, ExitCode, type PkgError } from "@pkg/common";
import { type Metadata, type PlatformKey, parsePlatformKey } from "@pkg/package";
import { type LayerArg, type LocalLayer, readLocalLayer } from "@pkg/package/push";

/** One platform of a version whose layers are ready to push. */
export interface PlatformBundle {
  /** Platform key as the spec writes it: `linux/amd64`, `linux/arm64+libc.musl`. */
  platform: string;
  /**
   * The layer files, in order, each a bundle (`*.tar.zst` / `*.tar.xz`) from `createBundle`: one
   * for an archive or binary mirror, several for an environment of wheels (each with the
   * repository of its shared wheel layer to mount it from).
   */
  layers: ReadonlyArray<string | LayerArg>;
  metadata: Metadata;
}

/** One platform of a version that failed before the push (download, verification, build, lint). */
export interface PlatformFailedEarlier {
  platform: string;
  failure: PkgError;
}

export type VersionPlatform = PlatformBundle | PlatformFailedEarlier;

export interface ReadyPlatform {
  ready: true;
  platform: string;
  key: PlatformKey;
  layers: LocalLayer[];
  metadata: Metadata;
}

export type PreparedPlatform =
  | ReadyPlatform
  | { ready: false; platform: string; exitCode: ExitCode; message: string };

/**
 * Checks a platform's layers before anything of the version is pushed (each present, a tar+zstd
 * or tar+xz file, its digest known), so that the decision about rolling tags can be made for the
 * whole version up front.
 */
export async function preparePlatform(entry: VersionPlatform): Promise<PreparedPlatform> {
  if ("failure" in entry) {
    return {
      ready: false,
      platform: entry.platform,
      exitCode: entry.failure.exitCode,
      message: entry.failure.message,
    };
  }
  try {
    const key = parsePlatformKey(entry.platform, ExitCode.Data);
    const layers: LocalLayer[] = [];
    for (const layer of entry.layers)
      layers.push(await readLocalLayer(typeof layer === "string" ? { path: layer } : layer));
    return { ready: true, platform: entry.platform, key, layers, metadata: entry.metadata };
  } catch (error) {
    const { exitCode, line } = describeError(error);
    return { ready: false, platform: entry.platform, exitCode, message: line };
  }
}
