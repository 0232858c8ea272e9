import { parseManifestDocument, type TargetReader } from "@pkg/oci";
import pLimit from "p-limit";
import { formatPlatform } from "../platform/index.js";

export interface TagRow {
  tag: string;
  digest: string;
  /** `index` for a package tag, else the artifact type of the single manifest behind it. */
  kind: string;
  platforms: string[];
}

const FETCH_CONCURRENCY = 8;

/**
 * Every tag of a repository with what it points at, in tag order. A repository that does not
 * exist is exit 65 (`<repository>: no such repository`); one without tags gives no rows.
 */
export async function listTagPlatforms(target: TargetReader): Promise<TagRow[]> {
  const tags = (await target.listTags({ ifMissing: "error" })).sort();
  const limit = pLimit(FETCH_CONCURRENCY);
  const rows = await Promise.all(
    tags.map((tag) =>
      limit(async (): Promise<TagRow | undefined> => {
        const stored = await target.fetchManifest(tag);
        if (!stored) return undefined; // deleted between the listing and the read
        const doc = parseManifestDocument(stored.bytes, `${target.displayName}:${tag}`);
        if (doc.kind === "index") {
          const platforms = doc.index.manifests.flatMap((m) =>
            m.platform ? [formatPlatform(m.platform)] : [],
          );
          return { tag, digest: stored.descriptor.digest, kind: "index", platforms };
        }
        return {
          tag,
          digest: stored.descriptor.digest,
          kind: doc.manifest.artifactType ?? "manifest",
          platforms: [],
        };
      }),
    ),
  );
  return rows.filter((row): row is TagRow => row !== undefined);
}
