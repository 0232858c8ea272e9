import { describeError, type Logger } from "@pkg/common";
import { MediaType, memoryBlob, type Target } from "@pkg/oci";
import { PUBLISHED_SUMMARY_TAG } from "@pkg/package";
import { readPublishedSummary } from "../plan/read-summary.js";
import { type IndexRecord, type SummaryTags, serializeSummary } from "../plan/summary-document.js";
import { EMPTY_JSON, summaryManifest } from "../plan/summary-manifest.js";
import type { IndexObserver } from "./index-observer.js";
import { mergeSummary } from "./summary-merge.js";

export type SummaryUpdate =
  /** Nothing was seen this run, or the summary already said it all. */
  | { status: "unchanged" }
  | { status: "written"; tags: number; digest: string }
  /** The run is not failed for this: the tags stay the truth, the summary is a cache. */
  | { status: "failed"; message: string };

/**
 * After a sync: read-modify-write the target's published summary (`__pkg.published`) with what
 * the run saw behind each version record tag (`observer`: the indexes its pushes wrote and
 * verified, and those its plan read). Starts from the current summary when valid, drops tags no
 * longer listed. A failure is logged as a warning and returned, never thrown.
 */
export async function updatePublishedSummary(
  target: Target,
  observer: Pick<IndexObserver, "seen" | "indexes">,
  log: Logger,
): Promise<SummaryUpdate> {
  if (observer.seen.size === 0) return { status: "unchanged" };
  try {
    const listed = new Set(await target.listTags());
    const current = listed.has(PUBLISHED_SUMMARY_TAG) ? await readPublishedSummary(target) : undefined;
    if (current?.status === "invalid")
      log.warn(`${target.displayName}: replacing the published summary (${current.reason})`);
    const currentTags = current?.status === "valid" ? current.tags : undefined;
    const next = mergeSummary(currentTags, withKnownConfigs(observer, currentTags), listed);
    if (currentTags && sameSummary(currentTags, next)) return { status: "unchanged" };
    const digest = await writeSummary(target, next);
    return { status: "written", tags: next.size, digest };
  } catch (error) {
    const message = describeError(error).line;
    log.warn(
      `${target.displayName}: the published summary was not updated (${message}); the next check reads the indexes it lacks`,
    );
    return { status: "failed", message };
  }
}

/**
 * Before a run re-points tags that already hold an index (a patch, a cascade repair): takes them out of the
 * published summary, so that should the update after the run fail, a plan reads their indexes
 * rather than trust what the summary said they held. Nothing is written when the summary names
 * none of them. A failure is a warning, never thrown: the update after the run tries again.
 */
export async function withdrawFromSummary(
  target: Target,
  tags: Iterable<string>,
  log: Logger,
): Promise<void> {
  try {
    const current = await readPublishedSummary(target);
    if (current.status !== "valid") return;
    const next = new Map(current.tags);
    for (const tag of tags) next.delete(tag);
    if (next.size < current.tags.size) await writeSummary(target, next);
  } catch (error) {
    log.warn(
      `${target.displayName}: the tags about to move could not be taken out of the published summary (${describeError(error).line}); if its update after this run fails too, plan and check with --verify-published until a later run updates it`,
    );
  }
}

/**
 * What the run saw, each index's configs completed from the current summary for the platforms
 * whose manifest the run did not handle itself (an index it only read, entries a push carried):
 * a current record whose index the run saw too (same digest: the same manifests) tells the
 * config of each manifest that index lists, wherever else it is listed.
 */
export function withKnownConfigs(
  observer: Pick<IndexObserver, "seen" | "indexes">,
  current: ReadonlyMap<string, IndexRecord> | undefined,
): Map<string, IndexRecord | null> {
  const configOf = new Map<string, string>();
  for (const record of current?.values() ?? []) {
    const manifests = observer.indexes.get(record.digest);
    for (const [key, config] of record.configs ?? []) {
      const manifest = manifests?.get(key);
      if (manifest !== undefined) configOf.set(manifest, config);
    }
  }
  const seen = observer.seen;
  const out = new Map(seen);
  if (configOf.size === 0) return out;
  for (const [tag, record] of seen) {
    const manifests = record === null ? undefined : observer.indexes.get(record.digest);
    if (record === null || manifests === undefined) continue;
    const configs = new Map(record.configs);
    for (const key of record.platforms) {
      const config = configs.get(key) ?? configOf.get(manifests.get(key) ?? "");
      if (config !== undefined) configs.set(key, config);
    }
    out.set(tag, { ...record, ...(configs.size === 0 ? {} : { configs }) });
  }
  return out;
}

function sameSummary(a: ReadonlyMap<string, IndexRecord>, b: ReadonlyMap<string, IndexRecord>): boolean {
  return serializeSummary(a).equals(serializeSummary(b));
}

/** Config blob and empty layer first, then the manifest under the reserved tag. */
async function writeSummary(target: Target, tags: SummaryTags): Promise<string> {
  const config = memoryBlob(serializeSummary(tags));
  const empty = memoryBlob(EMPTY_JSON);
  await target.pushBlob(config);
  await target.pushBlob(empty);
  const manifest = summaryManifest(config, empty);
  const descriptor = await target.pushManifest(manifest, MediaType.ImageManifest, PUBLISHED_SUMMARY_TAG);
  return descriptor.digest;
}
