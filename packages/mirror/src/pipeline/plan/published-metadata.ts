import { buffer } from "node:stream/consumers";
import { ExitCode, PkgError } from "@pkg/common";
import {
  type Descriptor,
  MediaType,
  type Platform,
  parseImageIndex,
  parseManifestDocument,
  type TargetReader,
} from "@pkg/oci";
import { type Metadata, PackageMediaType, parseMetadata, platformKeyFromOci } from "@pkg/package";
import pLimit from "p-limit";
import type { IndexRecord } from "../../plan/summary-document.js";

/** Registry reads (indexes, manifests, config blobs) in flight at once while scanning for drift. */
export const DRIFT_READ_CONCURRENCY = 64;

/** A config blob by digest, with its size when a manifest gave it (a summary gives none). */
export type ConfigBlob = Pick<Descriptor, "digest"> & Partial<Pick<Descriptor, "size">>;

/** The published metadata of versions, read through a read-only target. */
export interface PublishedMetadataReader {
  /**
   * Per platform key, the manifest the newest of `tags` (a version's own tags, oldest first)
   * lists for it. A tag gone since the listing holds nothing.
   */
  manifests(tags: readonly string[]): Promise<Map<string, Descriptor>>;
  /** Per platform key, the manifest the index behind `tag` lists for it (empty when the tag is gone). */
  index(tag: string): Promise<Map<string, Descriptor>>;
  /** The config (metadata) descriptor of a package manifest. */
  config(manifest: Descriptor): Promise<Descriptor>;
  /** The metadata a config blob holds (its size checked when given, its digest always). */
  metadata(config: ConfigBlob): Promise<Metadata>;
}

/**
 * Reads at most `concurrency` requests at a time, each index, manifest and config blob once. Any
 * registry failure propagates as it is (a transient one is exit 69): a plan that cannot read what
 * is published fails rather than guess. A manifest an index lists but the repository lacks, or
 * one that is not a package, is bad data in a package repository (exit 65).
 */
export function publishedMetadataReader(
  target: TargetReader,
  concurrency = DRIFT_READ_CONCURRENCY,
): PublishedMetadataReader {
  const limit = pLimit(concurrency);
  const indexes = new Map<string, Promise<Map<string, Descriptor>>>();
  const configs = new Map<string, Promise<Descriptor>>();
  const blobs = new Map<string, Promise<Metadata>>();
  const once = <T>(cache: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> => {
    let pending = cache.get(key);
    if (pending === undefined) {
      pending = limit(read);
      cache.set(key, pending);
    }
    return pending;
  };

  const indexEntries = (tag: string) =>
    once(indexes, tag, async () => {
      const stored = await target.fetchManifest(tag);
      const entries = new Map<string, Descriptor>();
      if (!stored) return entries;
      for (const entry of parseImageIndex(stored.bytes, `${target.displayName}:${tag}`).manifests) {
        const key = entry.platform ? platformKeyFromOci(entry.platform as Platform) : undefined;
        if (key) entries.set(key.key, entry);
      }
      return entries;
    });

  return {
    async manifests(tags) {
      const read = await Promise.all(tags.map(indexEntries));
      const newestFirst = new Map<string, Descriptor>();
      for (const entries of read.reverse()) {
        for (const [key, entry] of entries) if (!newestFirst.has(key)) newestFirst.set(key, entry);
      }
      return newestFirst;
    },
    index: indexEntries,
    config(manifest) {
      return once(configs, manifest.digest, async () => {
        const what = `${target.displayName}@${manifest.digest}`;
        const stored = await target.fetchManifest(manifest.digest);
        if (!stored)
          throw new PkgError(ExitCode.Data, `${what}: an index lists it but the repository lacks it`);
        const doc = parseManifestDocument(stored.bytes, what);
        if (
          doc.kind !== "manifest" ||
          doc.manifest.mediaType !== MediaType.ImageManifest ||
          doc.manifest.config.mediaType !== PackageMediaType.Config
        ) {
          throw new PkgError(ExitCode.Data, `${what} is not a pkg package manifest`);
        }
        return doc.manifest.config;
      });
    },
    metadata(config) {
      return once(blobs, config.digest, async () => {
        const bytes = await buffer(await target.fetchBlob(config.digest, config.size));
        return parseMetadata(bytes.toString("utf8"), `${target.displayName}@${config.digest} metadata`);
      });
    },
  };
}

/** The config blob one platform of a version is published with; undefined when its tag lost it. */
export type ConfigLookup = () => Promise<ConfigBlob | undefined>;

/**
 * Per platform key, how to learn the config blob of the manifest the newest of `tags` (a
 * version's own tags, oldest first) holding that platform lists, as `reader.manifests` picks it.
 * A tag the published summary covers is not read: the platforms it holds come from its record,
 * and so does a platform's config digest when the record names it (no request at all); otherwise
 * the tag's index and that manifest are read. The summary is trusted exactly as far as the plan
 * trusted its platforms (`summary` is absent when it was not used).
 */
export async function publishedConfigs(
  tags: readonly string[],
  summary: ReadonlyMap<string, IndexRecord> | undefined,
  reader: PublishedMetadataReader,
): Promise<Map<string, ConfigLookup>> {
  const read = await Promise.all(
    tags.map(async (tag) => {
      const record = summary?.get(tag);
      return { tag, record, index: record === undefined ? await reader.index(tag) : undefined };
    }),
  );
  const lookups = new Map<string, ConfigLookup>();
  for (const { tag, record, index } of read.reverse()) {
    for (const [key, manifest] of index ?? []) {
      if (!lookups.has(key)) lookups.set(key, () => reader.config(manifest));
    }
    for (const key of record?.platforms ?? []) {
      if (lookups.has(key)) continue;
      const digest = record?.configs?.get(key);
      lookups.set(key, async () => {
        if (digest !== undefined) return { digest };
        const manifest = (await reader.index(tag)).get(key);
        return manifest === undefined ? undefined : reader.config(manifest);
      });
    }
  }
  return lookups;
}
