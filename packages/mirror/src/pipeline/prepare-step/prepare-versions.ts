import type { Logger } from "@pkg/common";
import type { HttpClient } from "@pkg/net";
import { parsePlatformKey, platformSlug } from "@pkg/package";
import type { RunnableSpec } from "../../plan/plan-run.js";
import type { PlanVersion } from "../documents/plan-document.js";
import type { PreparedBundle, PreparedVersion } from "../documents/prepared-version.js";
import { startPrepare } from "../prepare.js";
import { placeBundle, writePreparedManifest } from "./artifacts-writer.js";
import { versionJobOf } from "./version-job.js";

export interface PrepareStepOptions {
  spec: RunnableSpec;
  specDir: string;
  /** Downloads and bundles in progress, kept between runs: a finished bundle there is reused. */
  workDir: string;
  /** Where the artefacts go under their stable names, with `prepared-<tag>.json` per version. */
  bundlesDir: string;
  targetName: string;
  http: HttpClient;
  log: Logger;
  /** Aborted on SIGINT/SIGTERM: running work is cut off and no manifest is written after it. */
  signal: AbortSignal;
}

/**
 * `pipeline prepare`: builds the plan entries' bundles from their resolved assets (upstream is
 * not listed again), all at once within the spec's pools, and, version by version as its builds
 * complete, places each bundle and its metadata under their stable names and then writes the
 * version's `prepared-<tag>.json`. A failed pair is recorded there and concerns that pair only.
 * Versions reached after `signal` aborted get no manifest.
 */
export async function prepareVersions(
  entries: readonly PlanVersion[],
  options: PrepareStepOptions,
): Promise<PreparedVersion[]> {
  const jobs = entries.map(versionJobOf);
  const preparation = startPrepare(jobs, {
    spec: options.spec,
    specDir: options.specDir,
    workDir: options.workDir,
    targetName: options.targetName,
    http: options.http,
    log: options.log,
    signal: options.signal,
  });
  const prepared: PreparedVersion[] = [];
  try {
    for (const [i, job] of jobs.entries()) {
      const entry = entries[i] as PlanVersion;
      const outcomes = await Promise.all(job.pairs.map((pair) => preparation.outcome(pair)));
      if (options.signal.aborted) break;
      const bundles: PreparedBundle[] = [];
      const failed = job.refused.map(({ platform, message }) => ({ platform, message }));
      for (const [j, outcome] of outcomes.entries()) {
        const { platform } = job.pairs[j] as (typeof job.pairs)[number];
        if (outcome.ok === true) {
          const slug = platformSlug(parsePlatformKey(platform));
          const { bundle, metadata } = outcome.built;
          bundles.push(
            await placeBundle(options.bundlesDir, entry.version, { platform, slug, bundle, metadata }),
          );
        } else {
          failed.push({ platform, message: outcome.ok === false ? outcome.error.message : "cancelled" });
        }
      }
      const version = { plan: entry, bundles, failed };
      const path = await writePreparedManifest(options.bundlesDir, version);
      options.log.info(
        `${entry.version}: ${bundles.length} bundle${bundles.length === 1 ? "" : "s"} prepared${failed.length > 0 ? `, ${failed.length} failed` : ""} (${path})`,
      );
      prepared.push({ schema_version: 1, ...version });
    }
  } finally {
    await preparation.close();
  }
  return prepared;
}
