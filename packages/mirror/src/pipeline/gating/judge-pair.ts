import { join } from "node:path";
import { describeError } from "@pkg/common";
import { readJUnitFile } from "@pkg/package/junit";
import { junitFileName } from "../documents/artifacts.js";
import type { PlanLeg } from "../documents/plan-document.js";
import { gatingContainers } from "./gating-containers.js";
import { type ContainerJUnit, judgeJUnit, type PairVerdict } from "./junit-verdict.js";

export interface PairToJudge {
  /** The plan's `version` (the primary tag). */
  tag: string;
  /** The full platform key of the entry to push. */
  platform: string;
  legs: Readonly<Record<string, PlanLeg>>;
  /** Where the test legs' JUnit files were gathered. */
  junitDir: string;
}

/**
 * Whether one (version, platform) entry may be pushed, from the JUnit files of the containers
 * gating it (`gatingContainers`): every file there and readable, every declared test listed,
 * nothing failed. An entry no leg covers is red with `no_test_leg`. Reads files only.
 */
export async function judgePair(pair: PairToJudge): Promise<PairVerdict> {
  const gating = gatingContainers(pair.platform, pair.legs);
  if (!gating.covered) {
    return {
      green: false,
      failure: { platform: pair.platform, reason: "no_test_leg", message: gating.message },
      testFailures: [],
    };
  }
  const files: ContainerJUnit[] = [];
  for (const container of gating.containers) {
    const file = junitFileName(pair.tag, gating.leg.platform_slug, container.id);
    const read = await readJUnitFile(join(pair.junitDir, file)).then(
      (report) => ({ report }),
      (error: NodeJS.ErrnoException) => ({
        unreadable:
          error.code === "ENOENT" ? `${file} not found in ${pair.junitDir}` : describeError(error).line,
      }),
    );
    files.push({ container, file, read });
  }
  return judgeJUnit(pair.platform, gating.leg, files);
}
