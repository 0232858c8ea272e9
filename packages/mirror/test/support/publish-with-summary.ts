import { silentLogger } from "@pkg/common";
import type { Target } from "@pkg/oci";
import { observeIndexes } from "../../src/publish/index-observer.js";
import { type SummaryUpdate, updatePublishedSummary } from "../../src/publish/published-summary.js";
import { type IndexFixture, publishIndexes } from "./publish-indexes.js";

/** `publishIndexes`, then the published summary updated from what was written, as sync does. */
export async function publishWithSummary(
  target: Target,
  fixtures: readonly IndexFixture[],
  configBytes?: Buffer,
): Promise<SummaryUpdate> {
  const observer = observeIndexes(target);
  await publishIndexes(observer.target, fixtures, 16, configBytes);
  return updatePublishedSummary(target, observer, silentLogger);
}
