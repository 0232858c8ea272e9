import { buffer } from "node:stream/consumers";
import { describeError } from "@pkg/common";
import type { TargetReader } from "@pkg/oci";
import { PUBLISHED_SUMMARY_TAG } from "@pkg/package";
import { parseSummary, type SummaryTags } from "./summary-document.js";
import { summaryConfig } from "./summary-manifest.js";

export type SummaryRead =
  | { status: "absent" }
  /** Unreadable, malformed or failing verification: to be ignored, `reason` says why. */
  | { status: "invalid"; reason: string }
  | { status: "valid"; tags: SummaryTags };

/**
 * The target's published summary (manifest and config blob: two requests). Never throws: the
 * summary is a cache, so any failure to read or verify it is reported for the caller to fall back.
 */
export async function readPublishedSummary(target: TargetReader): Promise<SummaryRead> {
  try {
    const stored = await target.fetchManifest(PUBLISHED_SUMMARY_TAG);
    if (!stored) return { status: "absent" };
    const config = summaryConfig(stored.bytes);
    const bytes = await buffer(await target.fetchBlob(config.digest, config.size));
    return { status: "valid", tags: parseSummary(bytes) };
  } catch (error) {
    return { status: "invalid", reason: describeError(error).line };
  }
}
