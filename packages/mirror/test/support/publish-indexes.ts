import { type Descriptor, type ImageIndex, MediaType, memoryBlob, type Target } from "@pkg/oci";
import { PackageMediaType, parsePlatformKey, toOciPlatform } from "@pkg/package";
import pLimit from "p-limit";

/** One image index to write: the platforms it holds and every tag pointing at it. */
export interface IndexFixture {
  tags: string[];
  platforms: string[];
}

/**
 * Writes package-shaped image indexes cheaply, for published-state tests and benchmarks: one
 * tiny config and one manifest shared by every entry (the platforms differ, the content does not).
 */
export async function publishIndexes(
  target: Target,
  fixtures: readonly IndexFixture[],
  concurrency = 16,
  /** The config every manifest carries (default `{}`): real metadata where a reader parses it. */
  configBytes: Buffer = Buffer.from("{}"),
): Promise<void> {
  const config = memoryBlob(configBytes);
  await target.pushBlob(config);
  const manifestBytes = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: MediaType.ImageManifest,
      artifactType: PackageMediaType.Artifact,
      config: { mediaType: PackageMediaType.Config, digest: config.digest, size: config.size },
      layers: [],
    }),
  );
  const manifest = await target.pushManifest(manifestBytes, MediaType.ImageManifest);
  const limit = pLimit(concurrency);
  await Promise.all(
    fixtures.flatMap((fixture) => {
      const bytes = Buffer.from(JSON.stringify(indexOf(manifest, fixture.platforms)));
      return fixture.tags.map((tag) => limit(() => target.pushManifest(bytes, MediaType.ImageIndex, tag)));
    }),
  );
}

function indexOf(manifest: Descriptor, platforms: readonly string[]): ImageIndex {
  return {
    schemaVersion: 2,
    mediaType: MediaType.ImageIndex,
    artifactType: PackageMediaType.Artifact,
    manifests: platforms.map((key) => ({
      mediaType: MediaType.ImageManifest,
      digest: manifest.digest,
      size: manifest.size,
      platform: toOciPlatform(parsePlatformKey(key)),
    })),
  };
}
