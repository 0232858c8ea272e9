import { stat } from "node:fs/promises";
import { join } from "node:path";
import { fileDigests } from "../../build/fetch/file-digest.js";
import type { PlanLeg, PlanVersion } from "../documents/plan-document.js";
import type { PreparedVersion } from "../documents/prepared-version.js";
import type { PlatformFailure, TestFailure } from "../documents/run-summary.js";
import { judgePair } from "../gating/index.js";

/** One (version, platform) decided before anything is pushed. */
export type PairDecision =
  | { platform: string; green: true; bundle: string; metadata: string; testFailures: [] }
  | { platform: string; green: false; failure: PlatformFailure; testFailures: TestFailure[] };

export interface VersionDecision {
  entry: PlanVersion;
  /** Refused pairs first, then the plan's platforms in its order. */
  pairs: PairDecision[];
}

export interface DecideContext {
  bundlesDir: string;
  junitDir: string;
  legs: Record<string, PlanLeg>;
}

const red = (
  platform: string,
  failure: Omit<PlatformFailure, "platform">,
  tests: TestFailure[] = [],
): PairDecision => ({
  platform,
  green: false,
  failure: { platform, ...failure },
  testFailures: tests,
});

/** Why the prepared bundle cannot be pushed as it is, or undefined when it is the file prepare described. */
async function bundleProblem(
  dir: string,
  bundle: PreparedVersion["bundles"][number],
): Promise<string | undefined> {
  const path = join(dir, bundle.bundle);
  try {
    const info = await stat(path);
    if (info.size !== bundle.size)
      return `${bundle.bundle} has ${info.size} bytes, prepare wrote ${bundle.size}`;
    await stat(join(dir, bundle.metadata));
  } catch {
    return `${bundle.bundle} or its metadata never arrived in ${dir}`;
  }
  const digest = `sha256:${(await fileDigests(path, ["sha256"])).get("sha256")}`;
  return digest === bundle.digest
    ? undefined
    : `${bundle.bundle} is not the bundle prepare built (${digest}, expected ${bundle.digest})`;
}

/**
 * Decides every platform of one version before anything is pushed: green only when prepare built
 * its bundle, the bundle arrived unchanged, and every gating test leg's JUnit file says it passed
 * (see `judgePair`). A version prepare never reported (`prepared` undefined) has every platform
 * red, `missing_bundle`.
 */
export async function decideVersion(
  entry: PlanVersion,
  prepared: PreparedVersion | undefined,
  context: DecideContext,
): Promise<VersionDecision> {
  const pairs: PairDecision[] = [];
  for (const { platform, message } of entry.refused ?? [])
    pairs.push(red(platform, { reason: "refused", message }));
  for (const platform of entry.platforms) {
    const verdict = await judgePair({
      tag: entry.version,
      platform,
      legs: context.legs,
      junitDir: context.junitDir,
    });
    const tests = verdict.testFailures;
    if (prepared === undefined) {
      pairs.push(
        red(
          platform,
          { reason: "missing_bundle", message: `prepare wrote no manifest for ${entry.version}` },
          tests,
        ),
      );
      continue;
    }
    const failedEarly = prepared.failed.find((f) => f.platform === platform);
    if (failedEarly) {
      pairs.push(
        red(platform, { reason: "missing_bundle", message: `prepare failed: ${failedEarly.message}` }, tests),
      );
      continue;
    }
    const bundle = prepared.bundles.find((b) => b.platform === platform);
    const problem =
      bundle === undefined
        ? `prepare built no bundle for ${platform}`
        : await bundleProblem(context.bundlesDir, bundle);
    if (problem !== undefined || bundle === undefined) {
      pairs.push(red(platform, { reason: "missing_bundle", message: problem ?? "" }, tests));
      continue;
    }
    if (!verdict.green && verdict.failure) {
      pairs.push(red(platform, verdict.failure, tests));
      continue;
    }
    pairs.push({
      platform,
      green: true,
      bundle: join(context.bundlesDir, bundle.bundle),
      metadata: join(context.bundlesDir, bundle.metadata),
      testFailures: [],
    });
  }
  return { entry, pairs };
}
