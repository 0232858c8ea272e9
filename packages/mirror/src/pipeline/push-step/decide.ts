import { stat } from "node:fs/promises";
import { join } from "node:path";
import { sha256File } from "@pkg/package/push";
import type { LayerFile } from "../../build/build-pair.js";
import type { PlanLeg, PlanVersion } from "../documents/plan-document.js";
import type { PreparedBundle, PreparedVersion } from "../documents/prepared-version.js";
import type { PlatformFailure, TestFailure } from "../documents/run-summary.js";
import { judgePair } from "../gating/index.js";

export type { LayerFile as DecidedLayer } from "../../build/build-pair.js";

/** One (version, platform) decided before anything is pushed. */
export type PairDecision =
  | { platform: string; green: true; layers: LayerFile[]; metadata: string; testFailures: [] }
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

/** The files a prepared platform pushes: its layers (an environment package), else its one bundle. */
function layerFiles(bundle: PreparedBundle): Array<{ file: string; digest: string; size: number }> {
  return bundle.layers ?? [{ file: bundle.bundle, digest: bundle.digest, size: bundle.size }];
}

/** Why the prepared files cannot be pushed as they are, or undefined when each is the file prepare described. */
async function bundleProblem(dir: string, bundle: PreparedBundle): Promise<string | undefined> {
  try {
    await stat(join(dir, bundle.metadata));
  } catch {
    return `${bundle.metadata} never arrived in ${dir}`;
  }
  for (const { file, digest, size } of layerFiles(bundle)) {
    const path = join(dir, file);
    const info = await stat(path).catch(() => undefined);
    if (info === undefined) return `${file} never arrived in ${dir}`;
    if (info.size !== size) return `${file} has ${info.size} bytes, prepare wrote ${size}`;
    // read in 1 MiB chunks: a version's bundles are hashed before anything is pushed
    const found = await sha256File(path);
    if (found !== digest) return `${file} is not the file prepare built (${found}, expected ${digest})`;
  }
  return undefined;
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
      // each file's digest was checked just above (bundleProblem)
      layers: (bundle.layers ?? [{ file: bundle.bundle, digest: bundle.digest, wheel: undefined }]).map(
        ({ file, digest, wheel }) => ({
          path: join(context.bundlesDir, file),
          digest,
          ...(wheel === undefined ? {} : { wheel }),
        }),
      ),
      metadata: join(context.bundlesDir, bundle.metadata),
      testFailures: [],
    });
  }
  return { entry, pairs };
}
