import { isRecordTag } from "../plan/record-tags.js";
import type { IndexRecord, SummaryTags } from "../plan/summary-document.js";

/**
 * The next summary: the current one (when valid) without the tags the repository no longer
 * lists, then every record tag this run saw, as it saw it last (`null`: no index there, so the
 * tag leaves the summary). Only version record tags are kept, and only listed ones.
 */
export function mergeSummary(
  current: ReadonlyMap<string, IndexRecord> | undefined,
  seen: ReadonlyMap<string, IndexRecord | null>,
  listed: ReadonlySet<string>,
): SummaryTags {
  const next: SummaryTags = new Map();
  for (const [tag, record] of current ?? []) if (listed.has(tag) && isRecordTag(tag)) next.set(tag, record);
  for (const [tag, record] of seen) {
    if (record === null || !listed.has(tag) || !isRecordTag(tag)) next.delete(tag);
    else next.set(tag, record);
  }
  return next;
}
