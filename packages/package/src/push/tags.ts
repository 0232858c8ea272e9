import { ExitCode, type Logger, PkgError } from "@pkg/common";
import { type Descriptor, MediaType, type Platform, type Target } from "@pkg/oci";
import { type PlatformKey, platformsEqual } from "../platform/index.js";
import { exactTag, withoutBuild } from "../version/index.js";
import { asImageIndex, mergeIntoIndex } from "./index-merge.js";
import { canonicalJson } from "./manifest.js";
import { cascadePublication, planPublication } from "./publication.js";

/** A pushed platform manifest, as a tag's image index lists it. */
export type IndexEntry = Descriptor & { platform: Platform };

export interface TagRequest {
  target: Target;
  /** The tag named with `-i`: usually the primary tag `X.Y.Z_<timestamp>`. */
  tag: string;
  /** The manifests to publish, with the platform keys they were pushed for. */
  entries: ReadonlyArray<{ platform: PlatformKey; entry: IndexEntry }>;
  /** Also move the rolling tags the cascade rule allows each platform. */
  cascade: boolean;
  /** Leave `latest` (a variant's own tag) where it is: a newer release the version grammar cannot
   *  read holds it (a mirror's PEP 440 post-release). */
  keepLatest?: boolean;
  annotations: Record<string, string>;
  log: Logger;
}

export interface TagReport {
  /** Digest of the image index now behind the named tag. */
  indexDigest: string;
  /** Per entry (in the request's order), every tag that now holds it, the named tag first. */
  tags: string[][];
}

/** How often a tag index is re-merged when another writer changed it between our read and write. */
const MAX_MERGE_ATTEMPTS = 5;

/**
 * Publishes manifests already in the repository under the named tag and, with `cascade`, the
 * rolling tags each one's platform may take. Each tag's index is written once for all the
 * entries it receives. The tags of each entry are planned exactly as a push of that platform
 * alone would.
 *
 * Order: the named (primary) tag first, so no rolling tag holds a manifest the named tag does
 * not; the version's exact tag (`1.2.3`) last, so that its presence says the whole publication
 * is in place: a run killed half-way leaves a version with a primary tag and no exact tag, which
 * the mirror completes on its next run. Under `build_timestamp: none` the named tag is the exact
 * tag, and so comes last.
 */
export async function publishTags(request: TagRequest): Promise<TagReport> {
  const { target, log } = request;
  const publication = cascadePublication(request.tag, request.cascade);
  const platforms = request.entries.map((e) => e.platform);
  const tags = await planPublication(
    target,
    request.tag,
    platforms,
    publication,
    request.keepLatest === true,
  );
  const exact = publication ? exactTag(withoutBuild(publication.version), publication.variant) : undefined;
  const order = writeOrder(tags, exact);
  let indexDigest = "";
  for (const tag of order) {
    const entries = request.entries.filter((_, i) => tags[i]?.includes(tag)).map((e) => e.entry);
    const digest = await mergeTag(target, tag, entries, request.annotations);
    if (tag === request.tag) indexDigest = digest;
    log.info(`${target.displayName}:${tag} -> ${digest.slice(0, 19)}`);
  }
  return { indexDigest, tags };
}

/** Tags in the order the entries first take them (the named tag leads every plan), the exact tag moved last. */
export function writeOrder(tags: readonly string[][], exact: string | undefined): string[] {
  const order = [...new Set(tags.flat())];
  if (exact === undefined || !order.includes(exact)) return order;
  return [...order.filter((tag) => tag !== exact), exact];
}

const holds = (entries: readonly IndexEntry[], manifests: readonly Descriptor[]) =>
  entries.every((entry) =>
    manifests.some(
      (m) => m.digest === entry.digest && m.platform && platformsEqual(m.platform, entry.platform),
    ),
  );

/**
 * GET the tag's index, replace our platforms' entries, PUT it back; then read the tag again and
 * re-merge if a concurrent writer replaced it in between (registries offer no compare-and-swap).
 */
async function mergeTag(
  target: Target,
  tag: string,
  entries: readonly IndexEntry[],
  annotations: Record<string, string>,
): Promise<string> {
  for (let attempt = 1; attempt <= MAX_MERGE_ATTEMPTS; attempt++) {
    const current = await target.fetchManifest(tag);
    const existing = current ? asImageIndex(current.bytes, `${target.displayName}:${tag}`) : undefined;
    if (current && !existing) {
      throw new PkgError(
        ExitCode.Data,
        `${target.displayName}:${tag} holds a single manifest, not an image index; refusing to replace it`,
      );
    }
    const merged = entries.reduce(
      (index, entry) => mergeIntoIndex(index, entry, annotations, platformsEqual),
      existing,
    );
    if (!merged) throw new RangeError("a tag is merged with at least one entry");
    const written = await target.pushManifest(canonicalJson(merged), MediaType.ImageIndex, tag);
    const check = await target.fetchManifest(tag);
    const after = check ? asImageIndex(check.bytes, `${target.displayName}:${tag}`) : undefined;
    if (after && holds(entries, after.manifests)) return written.digest;
  }
  throw new PkgError(
    ExitCode.Transient,
    `${target.displayName}:${tag} kept changing under concurrent writers; retry the push`,
  );
}
